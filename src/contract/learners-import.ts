import { z } from "zod";
import { registerBodySchema } from "./auth";

/** The columns of a learners file, in any order, named case-insensitively in its header. */
export const LEARNER_CSV_COLUMNS = ["name", "email", "phone", "courses"] as const;
/** Rows of one learners file (the header not counted). */
export const LEARNER_IMPORT_MAX_ROWS = 10_000;
/** Characters of one learners file: about 2 MB. */
export const LEARNER_IMPORT_MAX_CHARS = 2_000_000;
/** Rows the web client sends per commit call: each call is one transaction. */
export const LEARNER_IMPORT_BATCH = 250;
/** Rows one commit call accepts. */
export const LEARNER_IMPORT_MAX_BATCH = 500;
/** Courses one row may name. */
export const LEARNER_IMPORT_MAX_COURSES = 50;
/** Learners one bulk enrollment takes. */
export const BULK_ENROLL_MAX = 500;

/**
 * One row's learner fields, checked exactly as the single registration checks them
 * (POST /api/auth/register): name required, a valid email (lower-cased), phone optional.
 */
export const learnerImportFieldsSchema = registerBodySchema.pick({
  name: true,
  email: true,
  phone: true,
});

export const learnerImportPreviewBodySchema = z.object({
  csv: z
    .string()
    .min(1, "The file is empty")
    .max(LEARNER_IMPORT_MAX_CHARS, "The file is too large (2 MB at most)"),
});

const courseRefSchema = z.object({ id: z.string(), title: z.string() });

/** A row of the file as the preview shows it: the cells read, the courses found, what is wrong. */
export const learnerImportPreviewRowSchema = z.object({
  /** The row's line in the file (the header is line 1). */
  line: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  /** The courses cell as written, for the rejected rows' download. */
  coursesCell: z.string(),
  courses: z.array(courseRefSchema),
  errors: z.array(z.string()),
});
export type LearnerImportPreviewRow = z.infer<typeof learnerImportPreviewRowSchema>;

export const learnerImportPreviewSchema = z.object({
  rows: z.array(learnerImportPreviewRowSchema),
  valid: z.number().int(),
  invalid: z.number().int(),
});
export type LearnerImportPreview = z.infer<typeof learnerImportPreviewSchema>;

/**
 * A row to register. The server checks it again in full: the preview only told the
 * administrator what to expect.
 */
export const learnerImportRowSchema = z.object({
  line: z
    .number()
    .int()
    .min(1)
    // The line in the file, blank lines and lines inside quoted cells counted: a label for
    // messages, bounded by what a file of the largest size can reach.
    .max(LEARNER_IMPORT_MAX_CHARS),
  name: z.string().max(1000),
  email: z.string().max(1000),
  phone: z.string().max(1000).nullable().optional(),
  courseIds: z.array(z.string().min(1).max(64)).max(LEARNER_IMPORT_MAX_COURSES),
});
export type LearnerImportRow = z.infer<typeof learnerImportRowSchema>;

export const learnerImportCommitBodySchema = z.object({
  rows: z
    .array(learnerImportRowSchema)
    .min(1, "No rows to import")
    .max(LEARNER_IMPORT_MAX_BATCH, `At most ${LEARNER_IMPORT_MAX_BATCH} rows per call`),
});
export type LearnerImportCommitBody = z.infer<typeof learnerImportCommitBodySchema>;

/**
 * What became of a row: `registered` (with its enrollments and invitation),
 * `alreadyRegistered` (the email had an account: nothing changed), or `rejected` (errors).
 */
export const learnerImportOutcomeSchema = z.enum(["registered", "alreadyRegistered", "rejected"]);
export type LearnerImportOutcome = z.infer<typeof learnerImportOutcomeSchema>;

export const learnerImportResultRowSchema = z.object({
  line: z.number().int(),
  email: z.string(),
  outcome: learnerImportOutcomeSchema,
  userId: z.string().nullable(),
  enrolled: z.number().int(),
  invited: z.boolean(),
  errors: z.array(z.string()),
});
export type LearnerImportResultRow = z.infer<typeof learnerImportResultRowSchema>;

export const learnerImportResultSchema = z.object({
  rows: z.array(learnerImportResultRowSchema),
  registered: z.number().int(),
  alreadyRegistered: z.number().int(),
  rejected: z.number().int(),
  enrolled: z.number().int(),
});
export type LearnerImportResult = z.infer<typeof learnerImportResultSchema>;

export const bulkEnrollBodySchema = z.object({
  courseId: z.string().min(1).max(64),
  userIds: z
    .array(z.string().min(1).max(64))
    .min(1, "Select at least one learner")
    .max(BULK_ENROLL_MAX, `At most ${BULK_ENROLL_MAX} learners at once`),
});
export type BulkEnrollBody = z.infer<typeof bulkEnrollBodySchema>;

/** The learners now enrolled, and those who already were (nothing changed for them). */
export const bulkEnrollResultSchema = z.object({
  enrolled: z.array(z.string()),
  alreadyEnrolled: z.array(z.string()),
});
export type BulkEnrollResult = z.infer<typeof bulkEnrollResultSchema>;

/** The error messages of a learners file, one place for the server, the web client and tests. */
export const LEARNER_IMPORT_ERRORS = {
  duplicateInFile: (line: number) => `This email appears earlier in the file (line ${line})`,
  alreadyRegistered: "This email is already registered",
  unknownCourse: (name: string) => `No course is called "${name}"`,
  ambiguousCourse: (name: string) =>
    `Several courses are called "${name}": use the course ID instead`,
  courseNotEnrollable: (name: string, reason: string) => `"${name}": ${reason}`,
  tooManyCourses: `A learner can be enrolled in at most ${LEARNER_IMPORT_MAX_COURSES} courses per file`,
} as const;
