import { boolean, date, index, jsonb, pgTable, text, timestamp, unique } from "drizzle-orm/pg-core";
import type { EvaluationItem } from "../../../contract";
import { courses } from "../../catalogue/courses/courses.table";
import { newId } from "../../db/ids";
import { creditRecordIdentity } from "../activity/activity.table";

/** Whether a course asks for its evaluation, and its form. No row means the defaults. */
export const courseEvaluations = pgTable("course_evaluations", {
  courseId: text("course_id")
    .primaryKey()
    .references(() => courses.id, { onDelete: "cascade" }),
  evaluationRequired: boolean("evaluation_required").notNull().default(false),
  /** Null: the default template serves this course. */
  evaluationItems: jsonb("evaluation_items").$type<EvaluationItem[]>(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** That a learner submitted the evaluation; the answers are in evaluation_responses. */
export const evaluationSubmissions = pgTable(
  "evaluation_submissions",
  {
    ...creditRecordIdentity(),
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

export type CourseEvaluationRow = typeof courseEvaluations.$inferSelect;
