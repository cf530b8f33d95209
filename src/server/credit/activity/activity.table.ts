import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";
import type { FacultyMember } from "../../../contract";
import { courses } from "../../catalogue/courses/courses.table";
import { newId } from "../../db/ids";
import { enrollments } from "../../learning/enrollments/enrollments.table";
import { users } from "../../people/auth/auth.table";

/**
 * A course's accreditation page ("About this activity") and its rules: the acknowledgement,
 * the dates and validity that close every step, and the retention of credit records. No row
 * means the defaults: a plain course. The evaluation, the attestation and the credit
 * settings each keep their own settings (course_evaluations, course_attestations,
 * course_credit_settings).
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
    releaseDate: date("release_date", { mode: "string" }),
    reviewDate: date("review_date", { mode: "string" }),
    expirationDate: date("expiration_date", { mode: "string" }),
    enrollmentValidDays: integer("enrollment_valid_days"),
    acknowledgementRequired: boolean("acknowledgement_required").notNull().default(false),
    retentionYears: integer("retention_years").notNull().default(6),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("course_activity_validity_check", sql`${t.enrollmentValidDays} >= 1`),
    check("course_activity_retention_check", sql`${t.retentionYears} >= 1`),
  ],
);

/**
 * The identity every credit record keeps (acknowledgements, evaluation submissions,
 * attestations, form-step answers): its links are cleared when the learner, course or
 * enrollment is deleted, and the names stay. A trigger (migration 0014; 0054 for form-step
 * answers) refuses any other change, and a delete before `retain_until`, which the course's
 * retention sets (activity.read-model.ts).
 */
export const creditRecordIdentity = () => ({
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
    ...creditRecordIdentity(),
    acknowledgedAt: timestamp("acknowledged_at", { withTimezone: true }).notNull(),
  },
  (t) => [unique("acknowledgements_enrollment_unique").on(t.enrollmentId)],
);

export type CourseActivityRow = typeof courseActivity.$inferSelect;
