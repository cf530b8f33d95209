import { and, asc, count, desc, eq, inArray, isNotNull, isNull, max, sql } from "drizzle-orm";
import type { QuestionPool } from "../../../contract";
import type { Executor } from "../../db/client";
import { preparedOnce } from "../../db/prepared";
import {
  type ExamAttemptRow,
  type ExamSettingsRow,
  examAttempts,
  examGrants,
  examSettings,
  type QuestionRow,
  questions,
  reviewAnswers,
  type StoredAnswer,
} from "./assessments.table";

/** What grading writes into an attempt, once. */
export type AttemptOutcome = Pick<
  ExamAttemptRow,
  "answers" | "submittedAt" | "graded" | "score" | "passed"
>;

/**
 * The attempt named by the prepared statement's `id`, while it is not submitted: the writes
 * of an attempt in progress touch nothing once it is graded.
 */
const stillOpen = and(eq(examAttempts.id, sql.placeholder("id")), isNull(examAttempts.submittedAt));

/** The question bank, exam settings, attempts, grants and review answers of courses. */
export function createAssessmentsRepository(db: Executor) {
  return {
    /** A course's questions: final pool first, then review questions, each by position. */
    async questionsOf(courseId: string): Promise<QuestionRow[]> {
      return db
        .select()
        .from(questions)
        .where(eq(questions.courseId, courseId))
        .orderBy(asc(questions.position), asc(questions.id));
    },

    /** The course's review questions, as their ids and modules (the review step's settings). */
    async reviewQuestionIds(courseId: string) {
      return db
        .select({ id: questions.id, moduleId: questions.moduleId })
        .from(questions)
        .where(and(eq(questions.courseId, courseId), eq(questions.pool, "review")))
        .orderBy(asc(questions.position), asc(questions.id));
    },

    async questionsOfModule(courseId: string, moduleId: string): Promise<QuestionRow[]> {
      return db
        .select()
        .from(questions)
        .where(
          and(
            eq(questions.courseId, courseId),
            eq(questions.pool, "review"),
            eq(questions.moduleId, moduleId),
          ),
        )
        .orderBy(asc(questions.position), asc(questions.id));
    },

    async finalPool(courseId: string): Promise<QuestionRow[]> {
      return db
        .select()
        .from(questions)
        .where(and(eq(questions.courseId, courseId), eq(questions.pool, "final")))
        .orderBy(asc(questions.position));
    },

    /** The course's questions, or one pool's, counted without reading them. */
    async countQuestions(courseId: string, pool?: QuestionPool): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(questions)
        .where(and(eq(questions.courseId, courseId), pool ? eq(questions.pool, pool) : undefined));
      return row?.n ?? 0;
    },

    async nextPosition(courseId: string): Promise<number> {
      const [row] = await db
        .select({ last: max(questions.position) })
        .from(questions)
        .where(eq(questions.courseId, courseId));
      return (row?.last ?? -1) + 1;
    },

    async insertQuestions(values: (typeof questions.$inferInsert)[]): Promise<QuestionRow[]> {
      if (!values.length) return [];
      return db.insert(questions).values(values).returning();
    },

    async updateQuestion(
      courseId: string,
      id: string,
      values: Partial<typeof questions.$inferInsert>,
    ): Promise<QuestionRow | undefined> {
      const [row] = await db
        .update(questions)
        .set({ ...values, updatedAt: new Date() })
        .where(and(eq(questions.courseId, courseId), eq(questions.id, id)))
        .returning();
      return row;
    },

    async deleteQuestion(courseId: string, id: string): Promise<QuestionRow | undefined> {
      const [row] = await db
        .delete(questions)
        .where(and(eq(questions.courseId, courseId), eq(questions.id, id)))
        .returning();
      return row;
    },

    async setPositions(courseId: string, moves: { id: string; position: number }[]) {
      if (!moves.length) return;
      const positions = sql.join(
        moves.map((m) => sql`(${m.id}::text, ${m.position}::int)`),
        sql`, `,
      );
      await db.execute(sql`
        update ${questions} set position = v.position
        from (values ${positions}) as v(id, position)
        where ${questions.courseId} = ${courseId} and ${questions.id} = v.id`);
    },

    async settingsOf(courseId: string): Promise<ExamSettingsRow | undefined> {
      const [row] = await db.select().from(examSettings).where(eq(examSettings.courseId, courseId));
      return row;
    },

    async saveSettings(values: typeof examSettings.$inferInsert): Promise<ExamSettingsRow> {
      const { courseId: _, ...rest } = values;
      const [row] = await db
        .insert(examSettings)
        .values(values)
        .onConflictDoUpdate({
          target: examSettings.courseId,
          set: { ...rest, updatedAt: new Date() },
        })
        .returning();
      return row!;
    },

    /** The learner's attempts without their questions and answers (the status page's list). */
    async attemptSummariesOf(enrollmentId: string) {
      return db
        .select({
          id: examAttempts.id,
          number: examAttempts.number,
          startedAt: examAttempts.startedAt,
          submittedAt: examAttempts.submittedAt,
          score: examAttempts.score,
          passed: examAttempts.passed,
        })
        .from(examAttempts)
        .where(eq(examAttempts.enrollmentId, enrollmentId))
        .orderBy(asc(examAttempts.number));
    },

    /**
     * Attempts started, whether one passed, the one in progress (its id) and the extra
     * attempts granted, in one read: a start or a submission answers with the attempts left.
     */
    async attemptTally(
      enrollmentId: string,
    ): Promise<{ used: number; passed: boolean; openId: string | null; grants: number }> {
      const statement = preparedOnce(db, "exam_attempt_tally", (d) => {
        const enrollment = sql.placeholder("enrollmentId");
        return d
          .select({
            used: count(),
            passed: sql<boolean>`coalesce(bool_or(${examAttempts.passed}), false)`,
            openId: sql<
              string | null
            >`(array_agg(${examAttempts.id}) filter (where ${examAttempts.submittedAt} is null))[1]`,
            grants: sql<number>`(select count(*) from ${examGrants} where ${examGrants.enrollmentId} = ${enrollment})::int`,
          })
          .from(examAttempts)
          .where(eq(examAttempts.enrollmentId, enrollment))
          .prepare("exam_attempt_tally");
      });
      const [row] = await statement.execute({ enrollmentId });
      return {
        used: row?.used ?? 0,
        passed: row?.passed === true,
        openId: row?.openId ?? null,
        grants: row?.grants ?? 0,
      };
    },

    /** Whose attempt this is and in which course, without reading its questions. */
    async attemptOwner(id: string) {
      const [row] = await db
        .select({ userId: examAttempts.userId, courseId: examAttempts.courseId })
        .from(examAttempts)
        .where(eq(examAttempts.id, id));
      return row;
    },

    async findAttempt(id: string): Promise<ExamAttemptRow | undefined> {
      const [row] = await db.select().from(examAttempts).where(eq(examAttempts.id, id));
      return row;
    },

    /** Locks the attempt: concurrent saves and submissions run one after the other. */
    async lockAttempt(id: string): Promise<ExamAttemptRow | undefined> {
      const [row] = await db
        .select()
        .from(examAttempts)
        .where(eq(examAttempts.id, id))
        .for("update");
      return row;
    },

    /** Saves the answers of an attempt in progress: false when it was submitted (or is gone). */
    async saveOpenAnswers(id: string, answers: StoredAnswer[], at: Date) {
      const statement = preparedOnce(db, "exam_attempt_save", (d) =>
        d
          .update(examAttempts)
          .set({
            answers: sql`${sql.placeholder("answers")}::jsonb`,
            answersSavedAt: sql`${sql.placeholder("at")}::timestamptz`,
          })
          .where(stillOpen)
          .returning({ id: examAttempts.id })
          .prepare("exam_attempt_save"),
      );
      const values = { id, answers: JSON.stringify(answers), at: at.toISOString() };
      return (await statement.execute(values)).length > 0;
    },

    /** Grades an attempt still in progress: false when it was submitted (or is gone). */
    async gradeOpenAttempt(id: string, outcome: AttemptOutcome) {
      const statement = preparedOnce(db, "exam_attempt_grade", (d) =>
        d
          .update(examAttempts)
          .set({
            answers: sql`${sql.placeholder("answers")}::jsonb`,
            submittedAt: sql`${sql.placeholder("submittedAt")}::timestamptz`,
            graded: sql`${sql.placeholder("graded")}::jsonb`,
            score: sql`${sql.placeholder("score")}::int`,
            passed: sql`${sql.placeholder("passed")}::boolean`,
          })
          .where(stillOpen)
          .returning({ id: examAttempts.id })
          .prepare("exam_attempt_grade"),
      );
      const { answers, submittedAt, graded, score, passed } = outcome;
      const written = await statement.execute({
        id,
        answers: JSON.stringify(answers),
        submittedAt: submittedAt?.toISOString() ?? null,
        graded: graded === null ? null : JSON.stringify(graded),
        score,
        passed,
      });
      return written.length > 0;
    },

    /** The first passed attempt's score and date (the exam step is done), if any. */
    async passedAttempt(enrollmentId: string) {
      const statement = preparedOnce(db, "exam_passed_attempt", (d) =>
        d
          .select({ score: examAttempts.score, submittedAt: examAttempts.submittedAt })
          .from(examAttempts)
          .where(
            and(
              eq(examAttempts.enrollmentId, sql.placeholder("enrollmentId")),
              eq(examAttempts.passed, true),
            ),
          )
          .orderBy(asc(examAttempts.submittedAt))
          .limit(1)
          .prepare("exam_passed_attempt"),
      );
      const [row] = await statement.execute({ enrollmentId });
      return row;
    },

    async grantsOf(enrollmentIds: string[]): Promise<Map<string, number>> {
      if (!enrollmentIds.length) return new Map();
      const rows = await db
        .select({ enrollmentId: examGrants.enrollmentId, n: count() })
        .from(examGrants)
        .where(inArray(examGrants.enrollmentId, enrollmentIds))
        .groupBy(examGrants.enrollmentId);
      return new Map(rows.map((r) => [r.enrollmentId, r.n]));
    },

    async insertGrant(enrollmentId: string, grantedBy: string) {
      const [row] = await db.insert(examGrants).values({ enrollmentId, grantedBy }).returning();
      return row!;
    },

    /** The learner's answers to these review questions; a choice of nothing is no answer. */
    async reviewAnswersOf(enrollmentId: string, questionIds: string[]) {
      if (!questionIds.length) return [];
      return db
        .select()
        .from(reviewAnswers)
        .where(
          and(
            eq(reviewAnswers.enrollmentId, enrollmentId),
            inArray(reviewAnswers.questionId, questionIds),
            sql`jsonb_array_length(${reviewAnswers.optionIds}) > 0`,
          ),
        );
    },

    async saveReviewAnswers(values: (typeof reviewAnswers.$inferInsert)[]) {
      if (!values.length) return;
      await db
        .insert(reviewAnswers)
        .values(values)
        .onConflictDoUpdate({
          target: [reviewAnswers.enrollmentId, reviewAnswers.questionId],
          set: {
            optionIds: sql`excluded.option_ids`,
            correct: sql`excluded.correct`,
            answeredAt: sql`excluded.answered_at`,
          },
        });
    },

    /** Graded attempts of a course, newest first (admin results), at most `limit`. */
    async gradedAttemptsOfCourse(courseId: string, limit: number): Promise<ExamAttemptRow[]> {
      return db
        .select()
        .from(examAttempts)
        .where(eq(examAttempts.courseId, courseId))
        .orderBy(desc(examAttempts.startedAt), desc(examAttempts.id))
        .limit(limit);
    },

    /** Per course: learners with an attempt, attempts, passes, mean score of graded attempts. */
    async courseFigures(courseId: string) {
      const [row] = await db
        .select({
          learners: sql<number>`count(distinct ${examAttempts.enrollmentId})::int`,
          attempts: sql<number>`count(${examAttempts.submittedAt})::int`,
          passedLearners: sql<number>`count(distinct ${examAttempts.enrollmentId}) filter (where ${examAttempts.passed})::int`,
          averageScore: sql<number | null>`round(avg(${examAttempts.score}), 1)::float8`,
        })
        .from(examAttempts)
        .where(eq(examAttempts.courseId, courseId));
      // Attempts to pass: the number of the (first) passing attempt, averaged over learners.
      const [pass] = await db
        .select({ average: sql<number | null>`round(avg(first_pass), 2)::float8` })
        .from(
          db
            .select({ firstPass: sql<number>`min(${examAttempts.number})`.as("first_pass") })
            .from(examAttempts)
            .where(
              and(
                eq(examAttempts.courseId, courseId),
                eq(examAttempts.passed, true),
                isNotNull(examAttempts.enrollmentId),
              ),
            )
            .groupBy(examAttempts.enrollmentId)
            .as("passes"),
        );
      return { ...row!, averageAttemptsToPass: pass?.average ?? null };
    },

    /** Item analysis: per question, graded attempts that drew it and how many got it right. */
    async itemFigures(courseId: string) {
      const result = await db.execute(
        sql`select g->>'questionId' as question_id, count(*)::int as presented,
              count(*) filter (where (g->>'correct')::boolean)::int as correct
            from ${examAttempts}, jsonb_array_elements(${examAttempts.graded}) as g
            where ${examAttempts.courseId} = ${courseId} and ${examAttempts.graded} is not null
            group by 1`,
      );
      const { rows } = result as unknown as {
        rows: { question_id: string; presented: number | string; correct: number | string }[];
      };
      return rows.map((r) => ({
        questionId: r.question_id,
        presented: Number(r.presented),
        correct: Number(r.correct),
      }));
    },

    /** Attempts still open past their deadline (graded as saved when next touched). */
    async openAttempt(enrollmentId: string): Promise<ExamAttemptRow | undefined> {
      const [row] = await db
        .select()
        .from(examAttempts)
        .where(and(eq(examAttempts.enrollmentId, enrollmentId), isNull(examAttempts.submittedAt)))
        .limit(1);
      return row;
    },
  };
}
