import { sql } from "drizzle-orm";
import {
  type CreditType,
  DEFAULT_EXAM_SETTINGS,
  type ExamSettings,
  type ExamSettingsBody,
  MAX_QUESTIONS_PER_COURSE,
  type Question,
  type QuestionBody,
  type QuestionImportResult,
  type QuestionPool,
} from "../../../contract";
import type { CourseRow } from "../../catalogue";
import type { Database, Executor } from "../../db/client";
import { newId } from "../../db/ids";
import type { Events } from "../../lib/events";
import type { Actor, AuditEventInput, AuditService } from "../../platform";
import { fieldChanges } from "../../platform";
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
    findMany(
      ids: string[],
    ): Promise<
      Map<string, { modules: { id: string; title: string }[]; creditTypes: CreditType[] }>
    >;
  };
  /** Every change to the bank or the settings is an audit event, in the change's transaction. */
  audit: Pick<AuditService, "append">;
  /** The pool and the exam's settings decide completion: each change publishes course.rules-changed. */
  events: Pick<Events, "transaction" | "subscribe">;
}

/** The audit events of the question bank: the final exam's pool and the review questions. */
const QUESTION_EVENTS = {
  final: {
    added: "exam.question_added",
    updated: "exam.question_updated",
    removed: "exam.question_removed",
    reordered: "exam.questions_reordered",
    imported: "exam.questions_imported",
  },
  review: {
    added: "review.question_added",
    updated: "review.question_updated",
    removed: "review.question_removed",
    reordered: "review.questions_reordered",
    imported: "review.questions_imported",
  },
} as const satisfies Record<QuestionPool, Record<string, AuditEventInput["type"]>>;

/** A question's text as the trail names it: enough to recognise it, not the whole item. */
const QUESTION_TEXT_MAX = 120;
const questionText = (text: string) =>
  text.length > QUESTION_TEXT_MAX ? `${text.slice(0, QUESTION_TEXT_MAX - 1)}…` : text;

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

  /** An audit event about the course's bank or settings, naming the course and module. */
  const event = (
    type: AuditEventInput["type"],
    actor: Actor,
    course: { row: CourseRow; modules: { id: string; title: string }[] },
    details: AuditEventInput["details"] = {},
    moduleId: string | null = null,
  ): AuditEventInput => {
    const module = moduleId ? course.modules.find((m) => m.id === moduleId) : undefined;
    return {
      type,
      actor,
      courseId: course.row.id,
      moduleId,
      details: {
        courseTitle: course.row.title,
        ...(module ? { moduleTitle: module.title } : {}),
        ...details,
      },
    };
  };

  const questionEvent = (
    verb: "added" | "updated" | "removed",
    actor: Actor,
    course: { row: CourseRow; modules: { id: string; title: string }[] },
    row: QuestionRow,
    details: AuditEventInput["details"] = {},
  ) =>
    event(
      QUESTION_EVENTS[row.pool][verb],
      actor,
      course,
      { questionId: row.id, questionText: questionText(row.text), ...details },
      row.moduleId,
    );

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
    if (!course) await courseOf(courseId);
    const [settings, questions, courses] = await Promise.all([
      repo.settingsOf(courseId),
      repo.questionsOf(courseId),
      deps.courses.findMany([courseId]),
    ]);
    const creditTypes = courses.get(courseId)?.creditTypes ?? [];
    const body = settingsOrDefault(settings);
    return {
      ...body,
      courseId,
      finalPoolSize: questions.filter((q) => q.pool === "final").length,
      reviewCount: questions.filter((q) => q.pool === "review").length,
      checks: publishChecks({ creditTypes, settings: body, questions }),
    };
  }

  // A course whose enabled exam cannot draw its questions is not published.
  deps.events.subscribe("course.publishing", {
    inTransaction: (tx, { courseId }) => assertDrawable(tx, courseId),
  });

  return {
    async list(courseId: string): Promise<Question[]> {
      await courseOf(courseId);
      return (await repo.questionsOf(courseId)).map(toQuestion);
    },

    async create(courseId: string, body: QuestionBody, actor: Actor): Promise<Question> {
      const course = await courseOf(courseId);
      assertModule(body, course.modules);
      const [row] = await deps.events.transaction(db, async (tx, publish) => {
        const txRepo = createAssessmentsRepository(tx);
        // Serializes additions per course: positions stay distinct and the cap holds.
        await tx.execute(sqlLockCourse(courseId));
        if ((await txRepo.countQuestions(courseId)) >= MAX_QUESTIONS_PER_COURSE) {
          throw tooManyQuestions(MAX_QUESTIONS_PER_COURSE);
        }
        const position = await txRepo.nextPosition(courseId);
        const inserted = await txRepo.insertQuestions([
          { courseId, position, ...questionValues(body) },
        ]);
        await deps.audit.append(tx, questionEvent("added", actor, course, inserted[0]!));
        await publish("course.rules-changed", { courseId });
        return inserted;
      });
      return toQuestion(row!);
    },

    async update(
      courseId: string,
      questionId: string,
      body: QuestionBody,
      actor: Actor,
    ): Promise<Question> {
      const found = await courseOf(courseId);
      assertModule(body, found.modules);
      const row = await deps.events.transaction(db, async (tx, publish) => {
        const txRepo = createAssessmentsRepository(tx);
        await tx.execute(sqlLockCourse(courseId));
        const before = (await txRepo.questionsOf(courseId)).find((q) => q.id === questionId);
        const updated = await txRepo.updateQuestion(courseId, questionId, questionValues(body));
        if (!before || !updated) throw questionNotFound();
        await assertStillDrawable(tx, found.row);
        // Options get new ids on every save: they count as changed when their content does.
        const content = (q: QuestionRow) => ({
          ...q,
          options: q.options.map((o) => ({
            text: o.text,
            correct: o.correct,
            feedback: o.feedback,
          })),
        });
        const changes = fieldChanges(
          content(before),
          content(updated),
          ["pool", "moduleId", "kind", "text", "options", "explanation"],
          { namesOnly: ["text", "explanation"] },
        );
        if (changes.length) {
          await deps.audit.append(tx, questionEvent("updated", actor, found, updated, { changes }));
        }
        // Even unchanged, its options have new ids: what exams draw from is read afresh.
        await publish("course.rules-changed", { courseId });
        return updated;
      });
      return toQuestion(row);
    },

    async remove(courseId: string, questionId: string, actor: Actor): Promise<void> {
      const course = await courseOf(courseId);
      await deps.events.transaction(db, async (tx, publish) => {
        const removed = await createAssessmentsRepository(tx).deleteQuestion(courseId, questionId);
        if (!removed) throw questionNotFound();
        await assertStillDrawable(tx, course.row);
        await deps.audit.append(tx, questionEvent("removed", actor, course, removed));
        await publish("course.rules-changed", { courseId });
      });
    },

    /**
     * Puts the named questions in the given order. They take the positions they held between
     * them, so reordering one group (the final pool, one module's review) leaves the rest.
     */
    async reorder(courseId: string, questionIds: string[], actor: Actor): Promise<Question[]> {
      const course = await courseOf(courseId);
      return deps.events.transaction(db, async (tx, publish) => {
        const txRepo = createAssessmentsRepository(tx);
        await tx.execute(sqlLockCourse(courseId));
        // The order review questions are asked in is read with the course's context.
        await publish("course.rules-changed", { courseId });
        const current = new Map((await txRepo.questionsOf(courseId)).map((q) => [q.id, q]));
        const unique = new Set(questionIds);
        if (unique.size !== questionIds.length || questionIds.some((id) => !current.has(id))) {
          throw notTheCourseQuestions();
        }
        const slots = questionIds.map((id) => current.get(id)!.position).sort((a, b) => a - b);
        const moves = questionIds.map((id, i) => ({ id, position: slots[i]! }));
        await txRepo.setPositions(courseId, moves);
        // One event per group whose order changed: the final pool, or one module's review.
        const groups = new Map<
          string,
          { pool: QuestionPool; moduleId: string | null; n: number }
        >();
        for (const { id, position } of moves) {
          const q = current.get(id)!;
          if (q.position === position) continue;
          const key = `${q.pool}:${q.moduleId ?? ""}`;
          const group = groups.get(key) ?? { pool: q.pool, moduleId: q.moduleId, n: 0 };
          group.n += 1;
          groups.set(key, group);
        }
        for (const group of groups.values()) {
          await deps.audit.append(
            tx,
            event(
              QUESTION_EVENTS[group.pool].reordered,
              actor,
              course,
              { moved: group.n },
              group.pool === "review" ? group.moduleId : null,
            ),
          );
        }
        return (await txRepo.questionsOf(courseId)).map(toQuestion);
      });
    },

    /** Checks a CSV file row by row; unless `dryRun`, saves its valid rows in one transaction. */
    async importCsv(
      courseId: string,
      csv: string,
      dryRun: boolean,
      actor: Actor,
    ): Promise<QuestionImportResult> {
      const course = await courseOf(courseId);
      const rows = parseQuestionCsv(csv, course.modules);
      const valid = rows.flatMap((r) => (r.question ? [r.question] : []));
      if (dryRun || !valid.length) return { rows, imported: 0 };
      await deps.events.transaction(db, async (tx, publish) => {
        const txRepo = createAssessmentsRepository(tx);
        await tx.execute(sqlLockCourse(courseId));
        if ((await txRepo.countQuestions(courseId)) + valid.length > MAX_QUESTIONS_PER_COURSE) {
          throw tooManyQuestions(MAX_QUESTIONS_PER_COURSE);
        }
        const first = await txRepo.nextPosition(courseId);
        await txRepo.insertQuestions(
          valid.map((q, i) => ({ courseId, position: first + i, ...questionValues(q) })),
        );
        for (const pool of ["final", "review"] as const) {
          const count = valid.filter((q) => q.pool === pool).length;
          if (count) {
            await deps.audit.append(
              tx,
              event(QUESTION_EVENTS[pool].imported, actor, course, { count }),
            );
          }
        }
        await publish("course.rules-changed", { courseId });
      });
      return { rows, imported: valid.length };
    },

    settings: (courseId: string) => settingsView(courseId),

    async saveSettings(
      courseId: string,
      body: ExamSettingsBody,
      actor: Actor,
    ): Promise<ExamSettings> {
      const course = await courseOf(courseId);
      await deps.events.transaction(db, async (tx, publish) => {
        const txRepo = createAssessmentsRepository(tx);
        await tx.execute(sqlLockCourse(courseId));
        const before = settingsOrDefault(await txRepo.settingsOf(courseId));
        await txRepo.saveSettings({ courseId, ...body });
        await assertStillDrawable(tx, course.row);
        const changes = fieldChanges(
          before,
          body,
          Object.keys(body) as (keyof ExamSettingsBody & string)[],
        );
        if (changes.length) {
          await deps.audit.append(tx, event("exam.settings_updated", actor, course, { changes }));
          await publish("course.rules-changed", { courseId });
        }
      });
      return settingsView(courseId, course.row);
    },
  };
}

export type QuestionsService = ReturnType<typeof createQuestionsService>;

/** A transaction-scoped lock on one course's question bank. */
function sqlLockCourse(courseId: string) {
  return sql`select pg_advisory_xact_lock(hashtext(${`questions:${courseId}`}))`;
}
