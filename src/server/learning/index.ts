export { registerAssessmentsRoutes } from "./assessments/assessments.routes";
export { examFailedOf } from "./assessments/exam.read-model";
export { createExamService, examStep } from "./assessments/exam.service";
export { createExamResults } from "./assessments/exam-results";
export { createQuestionsService } from "./assessments/questions.service";
export { createReviewService, reviewStep } from "./assessments/review.service";
export { registerCmi5Routes } from "./cmi5/cmi5.routes";
export { createCmi5Service } from "./cmi5/cmi5.service";
export { registerCmi5LaunchRoutes } from "./cmi5/cmi5-launch.routes";
export type {
  CompletionStep,
  CreditFacts,
  SharedLoad,
  StepUnit,
} from "./enrollments/completion-steps";
export { defineStep } from "./enrollments/completion-steps";
export type { EnrollmentMailsService } from "./enrollments/enrollment-mails.service";
export { createEnrollmentMailsService } from "./enrollments/enrollment-mails.service";
export { enrollmentRecords } from "./enrollments/enrollments.report";
export { registerEnrollmentsRoutes } from "./enrollments/enrollments.routes";
export type { EnrollmentsService } from "./enrollments/enrollments.service";
export { createEnrollmentsService } from "./enrollments/enrollments.service";
export type { EnrollmentRow } from "./enrollments/enrollments.table";
export { createObjectAccess } from "./enrollments/object-access";
export { createPackageAttempts } from "./package-runs/package-attempts.service";
export { registerPackageProgressRoutes } from "./package-runs/package-progress.routes";
export { createPackageProgressService } from "./package-runs/package-progress.service";
export { registerPackageRunsRoutes } from "./package-runs/package-runs.routes";
export {
  createPackageRunsService,
  packageCompletionStep,
} from "./package-runs/package-runs.service";
export { registerScormRuntimeRoutes } from "./package-runs/scorm-runtime.routes";
export { lastBeats } from "./watching/watching.report";
export { registerWatchingRoutes } from "./watching/watching.routes";
export { createWatchingService, watchingStep } from "./watching/watching.service";
