import { useCurrentUser } from "../../features/auth/session-context";
import { CertificateActions } from "../../features/certificates/components/certificate-actions";
import { CertificateCredit } from "../../features/certificates/components/certificate-credit";
import { CompletionNextLink } from "../../features/credit/components/learner/completion-checklist";
import { NextStepsPanel } from "../../features/credit/components/learner/next-step-top";
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
      certificateCredit={(enrollment) => <CertificateCredit enrollment={enrollment} />}
      // The next step of every unfinished course that waits on a screen of its own, at the top.
      renderTop={(enrollments) => (
        <NextStepsPanel
          courses={enrollments
            .filter((e) => !e.isCompleted && e.course.isPublished)
            .map((e) => ({ courseId: e.courseId, courseTitle: e.course.title }))}
        />
      )}
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
