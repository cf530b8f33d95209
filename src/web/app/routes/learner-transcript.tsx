import { PageHeader } from "../../components/page-header";
import { useCurrentUser } from "../../features/auth/session-context";
import {
  TranscriptDownloads,
  TranscriptView,
} from "../../features/certificates/components/transcript-view";
import { useDocumentTitle } from "../../lib/use-document-title";

/** /learner/transcript: the learner's own transcript with PDF and CSV downloads. */
export function LearnerTranscriptRoute() {
  const user = useCurrentUser();
  useDocumentTitle("Transcript");
  return (
    <div className="grid gap-6 sm:gap-8">
      <PageHeader
        title="Transcript"
        description="Every course you are enrolled in, with dates, hours, credit and certificates."
        actions={<TranscriptDownloads learnerId={user.id} />}
      />
      <TranscriptView learnerId={user.id} own />
    </div>
  );
}
