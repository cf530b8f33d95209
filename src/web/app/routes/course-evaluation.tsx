import { EvaluationPage } from "../../features/credit/components/learner/evaluation-page";
import { useCourseStepRoute } from "./use-course-step-route";

/** /courses/:courseId/evaluation: the learner's evaluation of the course. */
export function CourseEvaluationRoute() {
  const { courseId, courseTitle, certificateAction, onStepDone } = useCourseStepRoute();
  return (
    <EvaluationPage
      key={courseId}
      courseId={courseId}
      courseTitle={courseTitle}
      certificateAction={certificateAction}
      onSubmitted={onStepDone}
    />
  );
}
