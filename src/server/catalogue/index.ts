export { registerCaptionsRoutes } from "./captions/captions.routes";
export { createCaptionsService } from "./captions/captions.service";
export type { LearnerEnrollments, Viewer } from "./courses/course-catalogue";
export { courseSummaries, modulePackages } from "./courses/courses.report";
export { registerCoursesRoutes } from "./courses/courses.routes";
export type { CoursesService } from "./courses/courses.service";
export { createCoursesService } from "./courses/courses.service";
export type { CourseRow } from "./courses/courses.table";
export { registerCreditCatalogueRoutes } from "./courses/credit-catalogue.routes";
export type { CreditCatalogueService } from "./courses/credit-catalogue.service";
export { createCreditCatalogueService } from "./courses/credit-catalogue.service";
export {
  catalogueTypeNames,
  creditTypesOfCourse,
  currentCatalogueTypes,
} from "./courses/credit-offers.read-model";
export { creditTypeCourses } from "./courses/credit-offers.report";
export type { Cmi5Au, Cmi5Description } from "./packages/cmi5-course-structure";
export { registerPackageFilesRoutes } from "./packages/package-files.routes";
export { createPackagesService } from "./packages/packages.service";
export { createPackagesSweeper } from "./packages/packages.sweeper";
