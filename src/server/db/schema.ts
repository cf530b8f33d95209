/** Every table of every feature, gathered for Drizzle and drizzle-kit. */

export * from "../administration/reminders/reminders.table";
export * from "../administration/reports/reports.table";
export * from "../administration/setup-checklist/setup-checklist.table";
export * from "../catalogue/captions/captions.table";
export * from "../catalogue/courses/course-credit.table";
export * from "../catalogue/courses/courses.table";
export * from "../catalogue/courses/credit-catalogue.table";
export * from "../credit/activity/activity.table";
export * from "../credit/attestations/attestations.table";
export * from "../credit/certificates/certificate-mails.table";
export * from "../credit/certificates/certificates.table";
export * from "../credit/credentials/credentials.table";
export * from "../credit/credit/credit.table";
export * from "../credit/evaluations/evaluations.table";
export * from "../credit/identifiers/identifiers.table";
export * from "../credit/reporting/reporting.table";
export * from "../learning/assessments/assessments.table";
export * from "../learning/enrollments/enrollment-mails.table";
export * from "../learning/enrollments/enrollments.table";
export * from "../learning/watching/watching.table";
export * from "../people/auth/auth.table";
export * from "../platform/audit/audit.table";
export * from "../platform/objects/objects.table";
export * from "../platform/organisation/organisation.table";
export * from "../plugins/idempotency-keys.table";
export * from "../plugins/rate-limits.table";
