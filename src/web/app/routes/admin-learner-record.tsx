import { ArrowLeftIcon } from "lucide-react";
import { Link, useParams } from "react-router";
import { PageHeader } from "../../components/page-header";
import { Button } from "../../components/ui/button";
import { AuditExportCard } from "../../features/audit/components/audit-export-card";
import { useTranscript } from "../../features/certificates/api/get-transcript";
import {
  TranscriptDownloads,
  TranscriptView,
} from "../../features/certificates/components/transcript-view";
import { useCourses } from "../../features/courses/api/get-courses";
import { SignOnFacts } from "../../features/sign-on/components/sign-on-facts";
import { useDocumentTitle } from "../../lib/use-document-title";

/** /admin/learners/{id}: a learner's transcript, certificates (revocable) and audit export. */
export function AdminLearnerRecordRoute() {
  const { learnerId = "" } = useParams();
  const transcript = useTranscript(learnerId);
  const { data: courses } = useCourses();
  const name = transcript.data?.learner.name;
  useDocumentTitle(name ? `${name}: transcript` : "Transcript");
  return (
    <div className="grid grid-cols-1 gap-6 sm:gap-8">
      <div>
        <Button asChild variant="ghost" size="sm" className="-ml-2 text-zinc-700">
          <Link to="/admin/learners">
            <ArrowLeftIcon aria-hidden="true" />
            Learners
          </Link>
        </Button>
      </div>
      <PageHeader
        title={name ? `${name}` : "Transcript"}
        description={
          transcript.data
            ? `${transcript.data.learner.email} · transcript and certificates`
            : "Transcript and certificates"
        }
        actions={<TranscriptDownloads learnerId={learnerId} />}
      />
      <SignOnFacts userId={learnerId} />
      <TranscriptView learnerId={learnerId} canRevoke />
      <AuditExportCard courses={courses} learner={{ id: learnerId, name }} />
    </div>
  );
}
