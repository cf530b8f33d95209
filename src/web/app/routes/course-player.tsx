import { useParams } from "react-router";
import { useCurrentUser } from "../../features/auth/session-context";
import { DownloadCertificateButton } from "../../features/certificates/components/download-certificate-button";
import { CoursePlayer } from "../../features/learning/components/course-player";

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
    />
  );
}
