export { registerCaptionsRoutes } from "./captions/captions.routes";
export { createCaptionsService } from "./captions/captions.service";
export { creditTypesOfCourse } from "./courses/course-credit.read-model";
export { courseSummaries, creditTypeCourses } from "./courses/courses.report";
export { registerCoursesRoutes } from "./courses/courses.routes";
export type { CoursesService, LearnerEnrollments, Viewer } from "./courses/courses.service";
export { createCoursesService } from "./courses/courses.service";
export type { CourseRow } from "./courses/courses.table";
