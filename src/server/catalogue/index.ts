export { registerCaptionsRoutes } from "./captions/captions.routes";
export { createCaptionsService } from "./captions/captions.service";
export { courseSummaries } from "./courses/courses.report";
export { registerCoursesRoutes } from "./courses/courses.routes";
export type { CoursesService, LearnerEnrollments, Viewer } from "./courses/courses.service";
export { createCoursesService } from "./courses/courses.service";
export type { CourseRow } from "./courses/courses.table";
export {
  catalogueTypeNames,
  createCreditCatalogueService,
  creditTypeCourses,
  creditTypesOfCourse,
  registerCreditCatalogueRoutes,
} from "./credit-catalogue";
