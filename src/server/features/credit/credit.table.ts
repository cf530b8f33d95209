import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";
import type { EvaluationItem, FacultyMember, FieldOfStudy } from "../../../contract";
import { newId } from "../../db/ids";
import { users } from "../auth/auth.table";
import { courses } from "../courses/courses.table";
import { enrollments } from "../enrollments/enrollments.table";

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/**
 * Responsible officials' signature images. A row is never changed or deleted: issued
 * certificates point at the signature they were signed with.
 */
export const signatures = pgTable("signatures", {
  id: text("id").primaryKey().$defaultFn(newId),
  contentType: text("content_type").notNull(),
  bytes: bytea("bytes").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A course's accreditation: the "About this activity" page, its rules (acknowledgement,
 * validity, evaluation, attestation, retention), its evaluation form and the credit
 * settings a certificate prints. No row means the defaults: a plain course.
 */
export const courseActivity = pgTable(
  "course_activity",
  {
    courseId: text("course_id")
      .primaryKey()
      .references(() => courses.id, { onDelete: "cascade" }),
    objectives: jsonb("objectives").$type<string[]>().notNull().default([]),
    faculty: jsonb("faculty").$type<FacultyMember[]>().notNull().default([]),
    disclosureStatement: text("disclosure_statement").notNull().default(""),
    accreditationStatement: text("accreditation_statement").notNull().default(""),
    releaseDate: date("release_date", { mode: "string" }),
    reviewDate: date("review_date", { mode: "string" }),
    expirationDate: date("expiration_date", { mode: "string" }),
    enrollmentValidDays: integer("enrollment_valid_days"),
    acknowledgementRequired: boolean("acknowledgement_required").notNull().default(false),
    evaluationRequired: boolean("evaluation_required").notNull().default(false),
    attestationRequired: boolean("attestation_required").notNull().default(false),
    attestationText: text("attestation_text").notNull().default(""),
    partialCreditStep: numeric("partial_credit_step", { precision: 6, scale: 2, mode: "number" }),
    retentionYears: integer("retention_years").notNull().default(6),
    /** Null: the default template serves this course. */
    evaluationItems: jsonb("evaluation_items").$type<EvaluationItem[]>(),
    sponsorName: text("sponsor_name").notNull().default(""),
    sponsorAddress: text("sponsor_address").notNull().default(""),
    deliveryMethod: text("delivery_method").notNull().default(""),
    fieldsOfStudy: jsonb("fields_of_study").$type<FieldOfStudy[]>().notNull().default([]),
    registryNumber: text("registry_number").notNull().default(""),
    officialName: text("official_name").notNull().default(""),
    officialTitle: text("official_title").notNull().default(""),
    signatureId: text("signature_id").references(() => signatures.id),
    licenceRequired: boolean("licence_required").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("course_activity_validity_check", sql`${t.enrollmentValidDays} >= 1`),
    check("course_activity_retention_check", sql`${t.retentionYears} >= 1`),
    check("course_activity_step_check", sql`${t.partialCreditStep} > 0`),
  ],
);

/** A learner's professional licence, printed on certificates and credit reports. */
export const learnerLicences = pgTable("learner_licences", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  licenceType: text("licence_type").notNull().default(""),
  licenceNumber: text("licence_number").notNull().default(""),
  licenceState: text("licence_state").notNull().default(""),
  npn: text("npn").notNull().default(""),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The identity every credit record keeps: its links are cleared when the learner, course or
 * enrollment is deleted, and the names stay. A trigger (migration 0014) refuses any other
 * change, and a delete before `retain_until`.
 */
const recordIdentity = () => ({
  id: text("id").primaryKey().$defaultFn(newId),
  enrollmentId: text("enrollment_id").references(() => enrollments.id, { onDelete: "set null" }),
  userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
  courseId: text("course_id").references(() => courses.id, { onDelete: "set null" }),
  learnerName: text("learner_name").notNull(),
  learnerEmail: text("learner_email").notNull(),
  courseTitle: text("course_title").notNull(),
  retainUntil: timestamp("retain_until", { withTimezone: true }).notNull(),
});

export const acknowledgements = pgTable(
  "acknowledgements",
  {
    ...recordIdentity(),
    acknowledgedAt: timestamp("acknowledged_at", { withTimezone: true }).notNull(),
  },
  (t) => [unique("acknowledgements_enrollment_unique").on(t.enrollmentId)],
);

/** That a learner submitted the evaluation; the answers are in evaluation_responses. */
export const evaluationSubmissions = pgTable(
  "evaluation_submissions",
  {
    ...recordIdentity(),
    submittedAt: timestamp("submitted_at", { withTimezone: true }).notNull(),
  },
  (t) => [unique("evaluation_submissions_enrollment_unique").on(t.enrollmentId)],
);

/**
 * Evaluation answers, kept apart from who gave them: no learner, no enrollment, no time
 * finer than the month, so a report cannot be joined back to a submission.
 */
export const evaluationResponses = pgTable(
  "evaluation_responses",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    courseId: text("course_id").references(() => courses.id, { onDelete: "set null" }),
    courseTitle: text("course_title").notNull(),
    /** The items as the learner saw them. */
    items: jsonb("items").$type<EvaluationItem[]>().notNull(),
    answers: jsonb("answers").$type<{ itemId: string; value: number | string }[]>().notNull(),
    month: date("month", { mode: "string" }).notNull(),
    retainUntil: timestamp("retain_until", { withTimezone: true }).notNull(),
  },
  (t) => [index("evaluation_responses_course_idx").on(t.courseId)],
);

export const attestations = pgTable(
  "attestations",
  {
    ...recordIdentity(),
    /** The exact text the learner affirmed. */
    statement: text("statement").notNull(),
    creditsClaimed: numeric("credits_claimed", { precision: 6, scale: 2, mode: "number" }),
    designatedCredits: numeric("designated_credits", { precision: 6, scale: 2, mode: "number" }),
    ip: text("ip"),
    userAgent: text("user_agent"),
    attestedAt: timestamp("attested_at", { withTimezone: true }).notNull(),
  },
  (t) => [unique("attestations_enrollment_unique").on(t.enrollmentId)],
);

export type CourseActivityRow = typeof courseActivity.$inferSelect;
export type AttestationRow = typeof attestations.$inferSelect;
