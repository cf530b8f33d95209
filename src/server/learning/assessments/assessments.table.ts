import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";
import type { QuestionKind, QuestionPool, RevealAnswers } from "../../../contract";
import { courses, modules } from "../../catalogue/courses/courses.table";
import { newId } from "../../db/ids";
import { users } from "../../people/auth/auth.table";
import { enrollments } from "../enrollments/enrollments.table";

/** An option as stored: its id is the server's, made when the question is saved. */
export interface StoredOption {
  id: string;
  text: string;
  correct: boolean;
  feedback: string | null;
}

/** A question as an attempt saw it: kept with the attempt, so later edits never change it. */
export interface QuestionSnapshot {
  id: string;
  kind: QuestionKind;
  text: string;
  /** In the order the learner saw them. */
  options: StoredOption[];
  explanation: string | null;
}

export interface StoredAnswer {
  questionId: string;
  optionIds: string[];
}

export interface GradedQuestion {
  questionId: string;
  correct: boolean;
}

/**
 * A course's question bank: final-exam questions, and review questions tied to a module
 * (deleted with it). Positions order the whole bank of a course.
 */
export const questions = pgTable(
  "questions",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    courseId: text("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    pool: text("pool").$type<QuestionPool>().notNull(),
    moduleId: text("module_id"),
    kind: text("kind").$type<QuestionKind>().notNull(),
    text: text("text").notNull(),
    options: jsonb("options").$type<StoredOption[]>().notNull(),
    explanation: text("explanation"),
    position: integer("position").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("questions_pool_check", sql`${t.pool} in ('final', 'review')`),
    check("questions_kind_check", sql`${t.kind} in ('single', 'multiple', 'true_false')`),
    check("questions_module_check", sql`(${t.pool} = 'review') = (${t.moduleId} is not null)`),
    foreignKey({
      name: "questions_module_fk",
      columns: [t.courseId, t.moduleId],
      foreignColumns: [modules.courseId, modules.id],
    }).onDelete("cascade"),
    index("questions_course_idx").on(t.courseId, t.position),
  ],
);

/** A course's exam settings; a course without a row has the defaults (no exam). */
export const examSettings = pgTable(
  "exam_settings",
  {
    courseId: text("course_id")
      .primaryKey()
      .references(() => courses.id, { onDelete: "cascade" }),
    enabled: boolean("enabled").notNull().default(false),
    questionCount: integer("question_count").notNull(),
    passMark: integer("pass_mark").notNull(),
    maxAttempts: integer("max_attempts"),
    timeLimitMinutes: integer("time_limit_minutes"),
    revealAnswers: text("reveal_answers").$type<RevealAnswers>().notNull(),
    reviewRequired: boolean("review_required").notNull().default(true),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("exam_settings_count_check", sql`${t.questionCount} between 1 and 200`),
    check("exam_settings_pass_mark_check", sql`${t.passMark} between 1 and 100`),
    check("exam_settings_attempts_check", sql`${t.maxAttempts} >= 1`),
    check("exam_settings_time_check", sql`${t.timeLimitMinutes} >= 1`),
    check(
      "exam_settings_reveal_check",
      sql`${t.revealAnswers} in ('never', 'after_pass', 'always')`,
    ),
  ],
);

/**
 * Exam attempts: a record of credit. What was presented, what was saved and the grade are
 * kept even when the learner, the course or the enrollment is deleted (the links are
 * cleared), and a graded attempt never changes (a trigger of migration 0013 refuses it).
 */
export const examAttempts = pgTable(
  "exam_attempts",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    enrollmentId: text("enrollment_id").references(() => enrollments.id, { onDelete: "set null" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    courseId: text("course_id").references(() => courses.id, { onDelete: "set null" }),
    learnerName: text("learner_name").notNull(),
    learnerEmail: text("learner_email").notNull(),
    number: integer("number").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    deadline: timestamp("deadline", { withTimezone: true }),
    passMark: integer("pass_mark").notNull(),
    revealAnswers: text("reveal_answers").$type<RevealAnswers>().notNull(),
    questions: jsonb("questions").$type<QuestionSnapshot[]>().notNull(),
    answers: jsonb("answers").$type<StoredAnswer[]>().notNull().default([]),
    answersSavedAt: timestamp("answers_saved_at", { withTimezone: true }),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    graded: jsonb("graded").$type<GradedQuestion[]>(),
    score: integer("score"),
    passed: boolean("passed"),
  },
  (t) => [
    unique("exam_attempts_enrollment_number_unique").on(t.enrollmentId, t.number),
    check("exam_attempts_score_check", sql`${t.score} between 0 and 100`),
    index("exam_attempts_course_idx").on(t.courseId, t.startedAt),
    index("exam_attempts_user_idx").on(t.userId, t.startedAt),
  ],
);

/** Extra attempts an administrator granted a learner beyond the course's limit. */
export const examGrants = pgTable(
  "exam_grants",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    enrollmentId: text("enrollment_id")
      .notNull()
      .references(() => enrollments.id, { onDelete: "cascade" }),
    grantedBy: text("granted_by").references(() => users.id, { onDelete: "set null" }),
    grantedAt: timestamp("granted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("exam_grants_enrollment_idx").on(t.enrollmentId)],
);

/** A learner's latest answer to each review question (the audit chain keeps every one). */
export const reviewAnswers = pgTable(
  "review_answers",
  {
    enrollmentId: text("enrollment_id")
      .notNull()
      .references(() => enrollments.id, { onDelete: "cascade" }),
    questionId: text("question_id")
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
    optionIds: jsonb("option_ids").$type<string[]>().notNull(),
    correct: boolean("correct").notNull(),
    answeredAt: timestamp("answered_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.enrollmentId, t.questionId] })],
);

export type QuestionRow = typeof questions.$inferSelect;
export type ExamSettingsRow = typeof examSettings.$inferSelect;
export type ExamAttemptRow = typeof examAttempts.$inferSelect;
