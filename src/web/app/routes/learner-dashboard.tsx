import { useCurrentUser } from "../../features/auth/session-context";
import { CertificateActions } from "../../features/certificates/components/certificate-actions";
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
    />
  );
}
