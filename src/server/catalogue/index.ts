export { registerCaptionsRoutes } from "./captions/captions.routes";
export { createCaptionsService } from "./captions/captions.service";
export { creditTypesOfCourse } from "./courses/course-credit.read-model";
export { courseCreditTypes } from "./courses/course-credit.table";
export { registerCoursesRoutes } from "./courses/courses.routes";
export type { CoursesService, Viewer } from "./courses/courses.service";
export { createCoursesService } from "./courses/courses.service";
export type { CourseRow } from "./courses/courses.table";
export { courses, modules } from "./courses/courses.table";
