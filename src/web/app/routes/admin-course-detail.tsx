import type { Course } from "@contract";
import { useParams } from "react-router";
import { CourseAssessment } from "../../features/assessments/components/admin/course-assessment";
import { CourseDetail } from "../../features/courses/components/course-detail";
import { CourseAccreditation } from "../../features/credit/components/admin/course-accreditation";

const sectionsOf = (course: Course) => (
  <>
    <CourseAccreditation course={course} />
    <CourseAssessment course={course} />
  </>
);

/** /admin/courses/:courseId: course detail, module management, accreditation and the assessment (SPEC section 2). */
export function AdminCourseDetailRoute() {
  const { courseId = "" } = useParams();
  // Keyed by id so moving between courses starts each one from a clean state.
  return <CourseDetail key={courseId} courseId={courseId} renderSections={sectionsOf} />;
}
