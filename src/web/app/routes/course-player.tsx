import { useParams } from "react-router";
import { FinalExamStep } from "../../features/assessments/components/learner/final-exam-step";
import { ModuleReview } from "../../features/assessments/components/learner/module-review";
import { ReviewCompleteGate } from "../../features/assessments/components/learner/review-complete-gate";
import { useCurrentUser } from "../../features/auth/session-context";
import { CaptionTracks, PlayerCaptions } from "../../features/captions/components/player-captions";
import { CertificateDownloads } from "../../features/certificates/components/certificate-downloads";
import {
  AcknowledgeFirstNotice,
  ActivityPlayerNotes,
  useAcknowledgementLock,
} from "../../features/credit/components/learner/activity-in-player";
import { CompletionChecklist } from "../../features/credit/components/learner/completion-checklist";
import { NextStepTop } from "../../features/credit/components/learner/next-step-top";
import { useMyEnrollments } from "../../features/learning/api/get-my-enrollments";
import { CoursePlayer } from "../../features/learning/components/course-player";
import type { PlayerExtensions } from "../../features/learning/components/course-player-extensions";

/**
 * Captions and the transcript of each module's video, review questions under each module
 * (Mark as Complete waits for them), the final exam once the modules are done, and the
 * credit claim: About this activity, the next step at the top, the steps to complete, and
 * the first module locked until a required acknowledgement is given.
 */
const EXTENSIONS: PlayerExtensions = {
  renderVideoTracks: ({ courseId, moduleId }) => (
    <CaptionTracks courseId={courseId} moduleId={moduleId} />
  ),
  renderVideoExtra: ({ courseId, moduleId, video }) => (
    <PlayerCaptions courseId={courseId} moduleId={moduleId} video={video} />
  ),
  renderModuleExtra: ({ courseId, moduleId }) => (
    <ModuleReview courseId={courseId} moduleId={moduleId} />
  ),
  renderNextStep: ({ courseId, autoFocus }) => (
    <FinalExamStep courseId={courseId} autoFocus={autoFocus} />
  ),
  renderHeaderExtra: ({ courseId }) => <ActivityPlayerNotes courseId={courseId} />,
  renderNextStepTop: ({ courseId }) => <NextStepTop courseId={courseId} />,
  renderCompleteAction: ({ courseId, moduleId, action }) => (
    <ReviewCompleteGate courseId={courseId} moduleId={moduleId} action={action} />
  ),
  renderCompletion: ({ courseId, autoFocus, progressKey }) => (
    <CompletionChecklist
      courseId={courseId}
      context="player"
      autoFocus={autoFocus}
      progressKey={progressKey}
    />
  ),
};

/** /course/:courseId: the course player (SPEC section 2). */
export function CoursePlayerRoute() {
  const { courseId = "" } = useParams();
  const user = useCurrentUser();
  const enrolled = useMyEnrollments(user.id).data?.some((e) => e.courseId === courseId) ?? false;
  const locked = useAcknowledgementLock(courseId, enrolled);
  return (
    <CoursePlayer
      // A new course starts with fresh player state (open panels, pending focus).
      key={courseId}
      courseId={courseId}
      user={user}
      CertificateButton={CertificateDownloads}
      extensions={
        locked
          ? { ...EXTENSIONS, startGate: <AcknowledgeFirstNotice courseId={courseId} /> }
          : EXTENSIONS
      }
    />
  );
}
