import { useCurrentUser } from "../../features/auth/session-context";
import { CertificateActions } from "../../features/certificates/components/certificate-actions";
import { CompletionNextLink } from "../../features/credit/components/learner/completion-checklist";
import { LearnerDashboard } from "../../features/learning/components/learner-dashboard";
import { useDocumentTitle } from "../../lib/use-document-title";

/** /learner: the learner dashboard (SPEC section 2). */
export function LearnerDashboardRoute() {
  const user = useCurrentUser();
  useDocumentTitle("My learning");
  return (
    <LearnerDashboard
      user={user}
      certificateAction={(enrollment) => <CertificateActions enrollment={enrollment} />}
      // A course that asks for more than its modules leads to its next step (a completed
      // course has none, so it asks nothing of the server).
      courseAction={(enrollment, defaultAction) =>
        enrollment.isCompleted ? (
          defaultAction
        ) : (
          <CompletionNextLink
            courseId={enrollment.courseId}
            courseTitle={enrollment.course.title}
            fallback={defaultAction}
          />
        )
      }
    />
  );
}
