import { boolean, jsonb, pgTable, primaryKey, text, timestamp, unique } from "drizzle-orm/pg-core";
import type { EvaluationItem, FormStepKey } from "../../../contract";
import { courses } from "../../catalogue/courses/courses.table";
import { creditRecordIdentity } from "../activity/activity.table";

/** Whether a course asks for one of its form steps, and its form. No row means the defaults. */
export const courseFormSteps = pgTable(
  "course_form_steps",
  {
    courseId: text("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    step: text("step").$type<FormStepKey>().notNull(),
    required: boolean("required").notNull().default(false),
    /** Null: the step's default form serves this course. */
    items: jsonb("items").$type<EvaluationItem[]>(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.courseId, t.step] })],
);

/**
 * A learner's answers to a form step, with the form as they saw it: a credit record, kept
 * with the learner (the provider follows the answers up) and outliving the enrollment, which
 * a trigger keeps unchanged for the course's retention (migration 0054).
 */
export const formStepAnswers = pgTable(
  "form_step_answers",
  {
    ...creditRecordIdentity(),
    step: text("step").$type<FormStepKey>().notNull(),
    items: jsonb("items").$type<EvaluationItem[]>().notNull(),
    answers: jsonb("answers").$type<{ itemId: string; value: number | string }[]>().notNull(),
    answeredAt: timestamp("answered_at", { withTimezone: true }).notNull(),
  },
  (t) => [unique("form_step_answers_enrollment_step_unique").on(t.enrollmentId, t.step)],
);

export type CourseFormStepRow = typeof courseFormSteps.$inferSelect;
export type FormStepAnswerRow = typeof formStepAnswers.$inferSelect;
