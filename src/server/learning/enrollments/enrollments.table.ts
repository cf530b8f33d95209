import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";
import { courses } from "../../catalogue/courses/courses.table";
import { newId } from "../../db/ids";
import { users } from "../../people/auth/auth.table";

export const enrollments = pgTable(
  "enrollments",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    courseId: text("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    progress: integer("progress").notNull().default(0),
    isCompleted: boolean("is_completed").notNull().default(false),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("enrollments_user_course_unique").on(t.userId, t.courseId),
    check("enrollments_progress_check", sql`${t.progress} between 0 and 100`),
    index("enrollments_course_idx").on(t.courseId),
    index("enrollments_user_created_idx").on(t.userId, t.createdAt),
    // Keyset pages and recent completions, newest first. NULLS FIRST is what ORDER BY … DESC
    // means: an index built DESC NULLS LAST cannot serve that order (EXPLAIN test).
    index("enrollments_created_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The open enrollments of a course, in id order: what a course edit recomputes, in pages.
    index("enrollments_course_open_idx").on(t.courseId, t.id).where(sql`not ${t.isCompleted}`),
    index("enrollments_completed_idx")
      .on(t.completedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.isCompleted}`),
  ],
);

/**
 * One row per module a learner completed, with its time: the audit trail of credit.
 * Rows are kept even if the module is later deleted (the credit was earned).
 */
export const moduleCompletions = pgTable(
  "module_completions",
  {
    enrollmentId: text("enrollment_id")
      .notNull()
      .references(() => enrollments.id, { onDelete: "cascade" }),
    moduleId: text("module_id").notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.enrollmentId, t.moduleId] })],
);

/**
 * The version of each course's rules of completion, and its learners' recompute: every edit
 * that changes what completes the course counts one more request in its own transaction, and
 * a recompute that brought every open enrollment up to date records the requests it served.
 * A course with fewer recomputed than requested is finished at start when a recompute was cut
 * short. A learner's step checks, in its own transaction, that the rules it read are still
 * the course's (`requests`), so no step settles on rules an edit has since changed.
 */
export const completionRecomputes = pgTable("completion_recomputes", {
  courseId: text("course_id")
    .primaryKey()
    .references(() => courses.id, { onDelete: "cascade" }),
  requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
  /** How many edits changed the course's rules: the rules' version. */
  requests: integer("requests").notNull().default(1),
  /** How many of those requests its learners have been recomputed after. */
  recomputed: integer("recomputed").notNull().default(0),
});

export type EnrollmentRow = typeof enrollments.$inferSelect;
