import { formStepKeySchema } from "@contract";
import { useParams } from "react-router";
import {
  FormStepNotFound,
  FormStepPage,
} from "../../features/credit/components/learner/form-step-page";
import { useCourseStepRoute } from "./use-course-step-route";

/** /courses/:courseId/steps/:step: the learner's answers to one form step of the course. */
export function CourseFormStepRoute() {
  const { step } = useParams();
  const { courseId, courseTitle, certificateAction, onStepDone } = useCourseStepRoute();
  const key = formStepKeySchema.safeParse(step);
  if (!key.success) return <FormStepNotFound />;
  return (
    <FormStepPage
      key={`${courseId}/${key.data}`}
      step={key.data}
      courseId={courseId}
      courseTitle={courseTitle}
      certificateAction={certificateAction}
      onSubmitted={onStepDone}
    />
  );
}
