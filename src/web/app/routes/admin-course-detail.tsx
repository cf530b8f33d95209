import { useParams } from "react-router";
import { CourseDetail } from "../../features/courses/components/course-detail";

/** /admin/courses/:courseId: course detail and module management (SPEC section 2). */
export function AdminCourseDetailRoute() {
  const { courseId = "" } = useParams();
  // Keyed by id so moving between courses starts each one from a clean state.
  return <CourseDetail key={courseId} courseId={courseId} />;
}
