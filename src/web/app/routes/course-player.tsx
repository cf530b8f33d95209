import { useParams } from "react-router";
import { FinalExamStep } from "../../features/assessments/components/learner/final-exam-step";
import { ModuleReview } from "../../features/assessments/components/learner/module-review";
import { useCurrentUser } from "../../features/auth/session-context";
import { DownloadCertificateButton } from "../../features/certificates/components/download-certificate-button";
import {
  CoursePlayer,
  type PlayerExtensions,
} from "../../features/learning/components/course-player";

/** Review questions under each module, and the final exam once the modules are done. */
const ASSESSMENTS: PlayerExtensions = {
  renderModuleExtra: ({ courseId, moduleId }) => (
    <ModuleReview courseId={courseId} moduleId={moduleId} />
  ),
  renderNextStep: ({ courseId, autoFocus }) => (
    <FinalExamStep courseId={courseId} autoFocus={autoFocus} />
  ),
};

/** /course/:courseId: the course player (SPEC section 2). */
export function CoursePlayerRoute() {
  const { courseId = "" } = useParams();
  const user = useCurrentUser();
  return (
    <CoursePlayer
      // A new course starts with fresh player state (open panels, pending focus).
      key={courseId}
      courseId={courseId}
      user={user}
      CertificateButton={DownloadCertificateButton}
      extensions={ASSESSMENTS}
    />
  );
}
