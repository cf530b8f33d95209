import { useCurrentUser } from "../../features/auth/session-context";
import { DownloadCertificateButton } from "../../features/certificates/components/download-certificate-button";
import { LearnerDashboard } from "../../features/learning/components/learner-dashboard";
import { useDocumentTitle } from "../../lib/use-document-title";

/** /learner: the learner dashboard (SPEC section 2). */
export function LearnerDashboardRoute() {
  const user = useCurrentUser();
  useDocumentTitle("My learning");
  return (
    <LearnerDashboard
      user={user}
      certificateAction={(enrollment) => (
        <DownloadCertificateButton
          enrollment={enrollment}
          variant="outline"
          className="w-full sm:w-auto"
        >
          Download certificate
          <span className="sr-only"> for {enrollment.course.title}</span>
        </DownloadCertificateButton>
      )}
    />
  );
}
