/** Every table of every feature, gathered for Drizzle and drizzle-kit. */
export * from "../features/activity/activity.table";
export * from "../features/assessments/assessments.table";
export * from "../features/attestations/attestations.table";
export * from "../features/audit/audit.table";
export * from "../features/auth/auth.table";
export * from "../features/captions/captions.table";
export * from "../features/certificates/certificate-mails.table";
export * from "../features/certificates/certificates.table";
export * from "../features/courses/courses.table";
export * from "../features/credit/credit.table";
export * from "../features/enrollments/enrollments.table";
export * from "../features/evaluations/evaluations.table";
export * from "../features/objects/objects.table";
export * from "../features/reminders/reminders.table";
export * from "../features/reports/reports.table";
export * from "../features/watching/watching.table";
export * from "../plugins/rate-limits.table";
