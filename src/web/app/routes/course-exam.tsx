import { useQueryClient } from "@tanstack/react-query";
import { useParams } from "react-router";
import { ExamPage } from "../../features/assessments/components/learner/exam-page";
import { useCurrentUser } from "../../features/auth/session-context";
import { getMyCertificatesQueryOptions } from "../../features/certificates/api/get-my-certificates";
import { CertificateDownloads } from "../../features/certificates/components/certificate-downloads";
import { AfterExamPassed } from "../../features/credit/components/learner/completion-checklist";
import {
  myEnrollmentsQueryKey,
  useMyEnrollments,
} from "../../features/learning/api/get-my-enrollments";

/** /courses/:courseId/exam: the course's final exam, its attempts and results. */
export function CourseExamRoute() {
  const { courseId = "" } = useParams();
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const enrollmentsQuery = useMyEnrollments(user.id);
  const enrollment = enrollmentsQuery.data?.find((e) => e.courseId === courseId);

  return (
    <ExamPage
      key={courseId}
      courseId={courseId}
      courseTitle={enrollment?.course.title}
      certificate={
        enrollment?.isCompleted ? <CertificateDownloads enrollment={enrollment} /> : undefined
      }
      afterPass={<AfterExamPassed courseId={courseId} />}
      onGraded={() => {
        // A pass completes the course and issues its certificate in the same transaction:
        // the dashboard, the player and the download read the enrollment again.
        void queryClient.invalidateQueries({ queryKey: myEnrollmentsQueryKey(user.id) });
        void queryClient.invalidateQueries({ queryKey: getMyCertificatesQueryOptions().queryKey });
      }}
    />
  );
}
