import { sql } from "drizzle-orm";
import {
  DEFAULT_EXAM_SETTINGS,
  type ExamSettings,
  type ExamSettingsBody,
  MAX_QUESTIONS_PER_COURSE,
  type Question,
  type QuestionBody,
  type QuestionImportResult,
} from "../../../contract";
import type { Database, Executor } from "../../db/client";
import { newId } from "../../db/ids";
import type { CourseRow } from "../courses/courses.table";
import {
  courseNotFound,
  notEnoughQuestions,
  notTheCourseQuestions,
  questionNotFound,
  tooManyQuestions,
  unknownModule,
} from "./assessments.errors";
import { createAssessmentsRepository } from "./assessments.repository";
import type { ExamSettingsRow, QuestionRow } from "./assessments.table";
import { publishChecks } from "./publish-checks";
import { parseQuestionCsv } from "./question-csv";

export interface QuestionsServiceDeps {
  db: Database;
  /** The courses feature: the course row and its modules. */
  courses: {
    findRow(id: string): Promise<CourseRow | undefined>;
    findMany(ids: string[]): Promise<Map<string, { modules: { id: string; title: string }[] }>>;
  };
}

function toQuestion(row: QuestionRow): Question {
  return {
    id: row.id,
    pool: row.pool,
    moduleId: row.moduleId,
    kind: row.kind,
    text: row.text,
    options: row.options.map((o) => ({ ...o })),
    explanation: row.explanation,
    position: row.position,
  };
}

/** The settings a course has, defaults when never saved. */
export function settingsOrDefault(row: ExamSettingsRow | undefined): ExamSettingsBody {
  if (!row) return DEFAULT_EXAM_SETTINGS;
  return {
    enabled: row.enabled,
    questionCount: row.questionCount,
    passMark: row.passMark,
    maxAttempts: row.maxAttempts,
    timeLimitMinutes: row.timeLimitMinutes,
    revealAnswers: row.revealAnswers,
    reviewRequired: row.reviewRequired,
  };
}

/** Columns of a question body; options get server ids (attempts keep their own snapshot). */
const questionValues = (body: QuestionBody) => ({
  pool: body.pool,
  moduleId: body.pool === "review" ? (body.moduleId ?? null) : null,
  kind: body.kind,
  text: body.text,
  options: body.options.map((o) => ({
    id: newId(),
    text: o.text,
    correct: o.correct,
    feedback: o.feedback ?? null,
  })),
  explanation: body.explanation ?? null,
});

/**
 * A course's question bank and exam settings, as administrators author them. Editing or
 * deleting a question never changes a past attempt: each attempt keeps what it showed.
 */
export function createQuestionsService(deps: QuestionsServiceDeps) {
  const { db } = deps;
  const repo = createAssessmentsRepository(db);

  async function courseOf(courseId: string) {
    const [row, courses] = await Promise.all([
      deps.courses.findRow(courseId),
      deps.courses.findMany([courseId]),
    ]);
    const course = courses.get(courseId);
    if (!row || !course) throw courseNotFound();
    return { row, modules: course.modules };
  }

  const assertModule = (body: QuestionBody, modules: { id: string }[]) => {
    if (body.pool === "review" && !modules.some((m) => m.id === body.moduleId)) {
      throw unknownModule();
    }
  };

  /** An enabled exam needs at least as many final-exam questions as an attempt draws. */
  async function assertDrawable(executor: Executor, courseId: string) {
    const txRepo = createAssessmentsRepository(executor);
    const settings = settingsOrDefault(await txRepo.settingsOf(courseId));
    if (!settings.enabled) return;
    const pool = await txRepo.countQuestions(courseId, "final");
    if (pool < settings.questionCount) throw notEnoughQuestions(pool, settings.questionCount);
  }

  /**
   * A published course whose exam is on must stay drawable: a change that leaves fewer
   * final-exam questions than an attempt draws is refused (inside the change's transaction).
   */
  async function assertStillDrawable(tx: Executor, course: CourseRow) {
    if (course.isPublished) await assertDrawable(tx, course.id);
  }

  async function settingsView(courseId: string, course?: CourseRow): Promise<ExamSettings> {
    const row = course ?? (await courseOf(courseId)).row;
    const [settings, questions] = await Promise.all([
      repo.settingsOf(courseId),
      repo.questionsOf(courseId),
    ]);
    const body = settingsOrDefault(settings);
    return {
      ...body,
      courseId,
      finalPoolSize: questions.filter((q) => q.pool === "final").length,
      reviewCount: questions.filter((q) => q.pool === "review").length,
      checks: publishChecks({ course: row, settings: body, questions }),
    };
  }

  return {
    async list(courseId: string): Promise<Question[]> {
      await courseOf(courseId);
      return (await repo.questionsOf(courseId)).map(toQuestion);
    },

    async create(courseId: string, body: QuestionBody): Promise<Question> {
      const { modules } = await courseOf(courseId);
      assertModule(body, modules);
      const [row] = await db.transaction(async (tx) => {
        const txRepo = createAssessmentsRepository(tx);
        // Serializes additions per course: positions stay distinct and the cap holds.
        await tx.execute(sqlLockCourse(courseId));
        if ((await txRepo.countQuestions(courseId)) >= MAX_QUESTIONS_PER_COURSE) {
          throw tooManyQuestions(MAX_QUESTIONS_PER_COURSE);
        }
        const position = await txRepo.nextPosition(courseId);
        return txRepo.insertQuestions([{ courseId, position, ...questionValues(body) }]);
      });
      return toQuestion(row!);
    },

    async update(courseId: string, questionId: string, body: QuestionBody): Promise<Question> {
      const { row: course, modules } = await courseOf(courseId);
      assertModule(body, modules);
      const row = await db.transaction(async (tx) => {
        const updated = await createAssessmentsRepository(tx).updateQuestion(
          courseId,
          questionId,
          questionValues(body),
        );
        if (!updated) throw questionNotFound();
        await assertStillDrawable(tx, course);
        return updated;
      });
      return toQuestion(row);
    },

    async remove(courseId: string, questionId: string): Promise<void> {
      const { row: course } = await courseOf(courseId);
      await db.transaction(async (tx) => {
        const removed = await createAssessmentsRepository(tx).deleteQuestion(courseId, questionId);
        if (!removed) throw questionNotFound();
        await assertStillDrawable(tx, course);
      });
    },

    /**
     * Puts the named questions in the given order. They take the positions they held between
     * them, so reordering one group (the final pool, one module's review) leaves the rest.
     */
    async reorder(courseId: string, questionIds: string[]): Promise<Question[]> {
      await courseOf(courseId);
      return db.transaction(async (tx) => {
        const txRepo = createAssessmentsRepository(tx);
        await tx.execute(sqlLockCourse(courseId));
        const current = new Map((await txRepo.questionsOf(courseId)).map((q) => [q.id, q]));
        const unique = new Set(questionIds);
        if (unique.size !== questionIds.length || questionIds.some((id) => !current.has(id))) {
          throw notTheCourseQuestions();
        }
        const slots = questionIds.map((id) => current.get(id)!.position).sort((a, b) => a - b);
        await txRepo.setPositions(
          courseId,
          questionIds.map((id, i) => ({ id, position: slots[i]! })),
        );
        return (await txRepo.questionsOf(courseId)).map(toQuestion);
      });
    },

    /** Checks a CSV file row by row; unless `dryRun`, saves its valid rows in one transaction. */
    async importCsv(courseId: string, csv: string, dryRun: boolean): Promise<QuestionImportResult> {
      const { modules } = await courseOf(courseId);
      const rows = parseQuestionCsv(csv, modules);
      const valid = rows.flatMap((r) => (r.question ? [r.question] : []));
      if (dryRun || !valid.length) return { rows, imported: 0 };
      await db.transaction(async (tx) => {
        const txRepo = createAssessmentsRepository(tx);
        await tx.execute(sqlLockCourse(courseId));
        if ((await txRepo.countQuestions(courseId)) + valid.length > MAX_QUESTIONS_PER_COURSE) {
          throw tooManyQuestions(MAX_QUESTIONS_PER_COURSE);
        }
        const first = await txRepo.nextPosition(courseId);
        await txRepo.insertQuestions(
          valid.map((q, i) => ({ courseId, position: first + i, ...questionValues(q) })),
        );
      });
      return { rows, imported: valid.length };
    },

    settings: (courseId: string) => settingsView(courseId),

    async saveSettings(courseId: string, body: ExamSettingsBody): Promise<ExamSettings> {
      const { row: course } = await courseOf(courseId);
      await db.transaction(async (tx) => {
        await createAssessmentsRepository(tx).saveSettings({ courseId, ...body });
        await assertStillDrawable(tx, course);
      });
      return settingsView(courseId, course);
    },

    /** Refuses publishing a course whose enabled exam cannot draw its questions. */
    async assertPublishable(courseId: string): Promise<void> {
      await assertDrawable(db, courseId);
    },
  };
}

export type QuestionsService = ReturnType<typeof createQuestionsService>;

/** A transaction-scoped lock on one course's question bank. */
function sqlLockCourse(courseId: string) {
  return sql`select pg_advisory_xact_lock(hashtext(${`questions:${courseId}`}))`;
}
