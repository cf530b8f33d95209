import { useQueryClient } from "@tanstack/react-query";
import { useParams } from "react-router";
import { useCurrentUser } from "../../features/auth/session-context";
import { getMyCertificatesQueryOptions } from "../../features/certificates/api/get-my-certificates";
import { CertificateDownloads } from "../../features/certificates/components/certificate-downloads";
import {
  myEnrollmentsQueryKey,
  useMyEnrollments,
} from "../../features/learning/api/get-my-enrollments";

/**
 * What the credit-claim screens of a course take from the rest of the portal: the course's
 * title, the certificate once the course is complete, and a way to say a step was recorded.
 */
export function useCourseStepRoute() {
  const { courseId = "" } = useParams();
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const enrollment = useMyEnrollments(user.id).data?.find((e) => e.courseId === courseId);
  return {
    courseId,
    courseTitle: enrollment?.course.title,
    certificateAction: enrollment?.isCompleted ? (
      <CertificateDownloads enrollment={enrollment} />
    ) : undefined,
    onStepDone: () => {
      // The last step completes the course and issues its certificate in one transaction:
      // the dashboard, the player and the download read the enrollment again.
      void queryClient.invalidateQueries({ queryKey: myEnrollmentsQueryKey(user.id) });
      void queryClient.invalidateQueries({ queryKey: getMyCertificatesQueryOptions().queryKey });
    },
  };
}
