import { AboutActivityPage } from "../../features/credit/components/learner/about-activity-page";
import { useCourseStepRoute } from "./use-course-step-route";

/** /courses/:courseId/about: About this activity, and its acknowledgement. */
export function CourseAboutRoute() {
  const { courseId, courseTitle } = useCourseStepRoute();
  return <AboutActivityPage key={courseId} courseId={courseId} courseTitle={courseTitle} />;
}
