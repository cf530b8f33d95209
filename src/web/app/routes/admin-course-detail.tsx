import type { Course } from "@contract";
import { useParams } from "react-router";
import { CourseAssessment } from "../../features/assessments/components/admin/course-assessment";
import { CaptionsButton } from "../../features/captions/components/captions-dialog";
import {
  CaptionsBadge,
  MissingCaptionsNotice,
} from "../../features/captions/components/missing-captions";
import { CourseDetail } from "../../features/courses/components/course-detail";
import type { ModuleListExtras } from "../../features/courses/components/module-list";
import { CourseAccreditation } from "../../features/credit/components/admin/course-accreditation";
import { PackageLearnersLink } from "../../features/package-progress/components/package-learners-link";
import { PackagePreviewButton } from "../../features/package-progress/components/package-preview";
import { CourseReportingCard } from "../../features/reporting/components/course-reporting-card";

const sectionsOf = (course: Course) => (
  <>
    <CourseAccreditation course={course} />
    <CourseReportingCard course={course} />
    <CourseAssessment course={course} />
  </>
);

/**
 * Captions of each module (a warning for modules without, a badge, and the dialog), and a
 * package module's learners and attempts.
 */
const moduleExtras: ModuleListExtras = {
  renderNotice: (course) => <MissingCaptionsNotice course={course} />,
  renderModuleBadge: (course, module) => <CaptionsBadge course={course} module={module} />,
  renderModuleActions: (course, module) => (
    <>
      <PackagePreviewButton course={course} module={module} />
      <PackageLearnersLink course={course} module={module} />
      <CaptionsButton course={course} module={module} />
    </>
  ),
};

/** /admin/courses/:courseId: course detail, module management, accreditation and the assessment (SPEC section 2). */
export function AdminCourseDetailRoute() {
  const { courseId = "" } = useParams();
  // Keyed by id so moving between courses starts each one from a clean state.
  return (
    <CourseDetail
      key={courseId}
      courseId={courseId}
      renderSections={sectionsOf}
      moduleExtras={moduleExtras}
    />
  );
}
