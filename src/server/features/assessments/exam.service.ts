import {
  type Answer,
  type Attempt,
  type AttemptResult,
  EXAM_GRACE_SECONDS,
  type ExamStatus,
  type SubmitResult,
} from "../../../contract";
import type { Database, Executor } from "../../db/client";
import type { Actor, AuditService } from "../audit/audit.service";
import type { CompletionRequirement } from "../enrollments/completion-steps";
import type { EnrollmentRow } from "../enrollments/enrollments.table";
import {
  alreadyPassed,
  alreadySubmitted,
  attemptNotFound,
  examDisabled,
  examNotOpen,
  noAttemptsLeft,
  notEnoughQuestions,
  notGradedYet,
  notYourAttempt,
  timeUp,
} from "./assessments.errors";
import { createAssessmentsRepository } from "./assessments.repository";
import type { ExamAttemptRow, ExamSettingsRow, StoredAnswer } from "./assessments.table";
import { checkedAnswers, drawVersion, grade, presented, toStoredAnswers } from "./grading";
import { settingsOrDefault } from "./questions.service";

export interface ExamServiceDeps {
  db: Database;
  audit: AuditService;
  courses: { moduleIds(courseId: string): Promise<string[]> };
  /** The steps API of the enrollments feature, used inside this feature's transactions. */
  enrollments: {
    lockEnrollment(tx: Executor, userId: string, courseId: string): Promise<EnrollmentRow>;
    lockEnrollmentById(tx: Executor, id: string): Promise<EnrollmentRow>;
    modulesDone(tx: Executor, enrollment: EnrollmentRow, order: string[]): Promise<boolean>;
    assertStepOpen(
      tx: Executor,
      enrollment: EnrollmentRow,
      key: "exam",
      order: string[],
    ): Promise<void>;
    settle(
      tx: Executor,
      input: { enrollment: EnrollmentRow; order: string[]; actor: Actor; now: Date },
    ): Promise<boolean>;
    announce(userId: string): void;
  };
  /** The exam clock (deadlines); tests pass one they move by hand. */
  now?: () => Date;
}

const GRACE_MS = EXAM_GRACE_SECONDS * 1000;

function toAttempt(row: ExamAttemptRow): Attempt {
  return {
    id: row.id,
    number: row.number,
    startedAt: row.startedAt.toISOString(),
    deadline: row.deadline?.toISOString() ?? null,
    questions: row.questions.map(presented),
    answers: row.answers,
  };
}

/** The graded questions with the right answers, when the attempt's reveal setting allows. */
function reviewOf(row: ExamAttemptRow): SubmitResult["review"] {
  const reveal =
    row.revealAnswers === "always" || (row.revealAnswers === "after_pass" && row.passed === true);
  if (!reveal || !row.graded) return null;
  const chosen = new Map(row.answers.map((a) => [a.questionId, a.optionIds]));
  const correct = new Map(row.graded.map((g) => [g.questionId, g.correct]));
  return row.questions.map((q) => ({
    questionId: q.id,
    text: q.text,
    kind: q.kind,
    correct: correct.get(q.id) ?? false,
    chosenOptionIds: chosen.get(q.id) ?? [],
    options: q.options,
    explanation: q.explanation,
  }));
}

/**
 * The final exam: the server draws each attempt's version, keeps what was presented and
 * saved, grades once, and completes the course at the pass (through the enrollments feature,
 * in the same transaction).
 */
export function createExamService(deps: ExamServiceDeps) {
  const { db, audit } = deps;
  const now = deps.now ?? (() => new Date());

  /** Past the deadline and its grace, an attempt is graded as it was saved. */
  const overdue = (row: ExamAttemptRow, at: Date) =>
    row.deadline !== null && at.getTime() > row.deadline.getTime() + GRACE_MS;

  /**
   * Grades an attempt and records it, in the caller's transaction (the enrollment and the
   * attempt are locked): one attempt gets one grade. A pass completes the course when no
   * other step is left.
   */
  async function gradeIn(
    tx: Executor,
    input: {
      attempt: ExamAttemptRow;
      answers: StoredAnswer[];
      enrollment: EnrollmentRow;
      order: string[];
      actor: Actor;
      at: Date;
    },
  ): Promise<ExamAttemptRow> {
    const { attempt, answers, enrollment, at } = input;
    const { graded, score } = grade(attempt.questions, answers);
    const passed = score >= attempt.passMark;
    const outcome = { answers, submittedAt: at, graded, score, passed };
    await createAssessmentsRepository(tx).updateAttempt(attempt.id, outcome);
    await audit.append(tx, {
      type: "exam.attempt_submitted",
      actor: input.actor,
      learnerId: enrollment.userId,
      courseId: enrollment.courseId,
      details: {
        enrollmentId: enrollment.id,
        attemptId: attempt.id,
        number: attempt.number,
        score,
        passed,
        passMark: attempt.passMark,
        correct: graded.filter((g) => g.correct).length,
        drawn: graded.length,
        lateGraded: overdue(attempt, at),
      },
    });
    if (passed) {
      await deps.enrollments.settle(tx, {
        enrollment,
        order: input.order,
        actor: input.actor,
        now: at,
      });
    }
    return { ...attempt, ...outcome };
  }

  /** The open attempt, graded first if its time ran out (as saved at the deadline). */
  async function openAttemptIn(
    tx: Executor,
    enrollment: EnrollmentRow,
    order: string[],
    at: Date,
  ): Promise<ExamAttemptRow | undefined> {
    const txRepo = createAssessmentsRepository(tx);
    const open = await txRepo.openAttempt(enrollment.id);
    if (!open) return undefined;
    if (!overdue(open, at)) return open;
    const locked = (await txRepo.lockAttempt(open.id))!;
    if (locked.submittedAt) return undefined;
    await gradeIn(tx, {
      attempt: locked,
      answers: locked.answers,
      enrollment,
      order,
      actor: null,
      at,
    });
    return undefined;
  }

  async function statusIn(
    tx: Executor,
    enrollment: EnrollmentRow,
    order: string[],
    at: Date,
  ): Promise<ExamStatus> {
    const txRepo = createAssessmentsRepository(tx);
    const settings = settingsOrDefault(await txRepo.settingsOf(enrollment.courseId));
    const current = settings.enabled ? await openAttemptIn(tx, enrollment, order, at) : undefined;
    const [attempts, pool, modulesDone] = [
      await txRepo.attemptSummariesOf(enrollment.id),
      settings.enabled ? await txRepo.countQuestions(enrollment.courseId, "final") : 0,
      await deps.enrollments.modulesDone(tx, enrollment, order),
    ];
    const graded = attempts.filter((a) => a.score !== null);
    const passed = graded.some((a) => a.passed);
    const attemptsLeft = await attemptsLeftFor(tx, enrollment, settings, attempts.length);
    const blockedReason = !settings.enabled
      ? examDisabled().message
      : passed
        ? alreadyPassed().message
        : current
          ? null
          : !modulesDone
            ? examNotOpen().message
            : attemptsLeft === 0
              ? noAttemptsLeft().message
              : pool < settings.questionCount
                ? notEnoughQuestions(pool, settings.questionCount).message
                : null;
    return {
      enabled: settings.enabled,
      passMark: settings.passMark,
      questionCount: settings.questionCount,
      timeLimitMinutes: settings.timeLimitMinutes,
      maxAttempts: settings.maxAttempts,
      attemptsUsed: attempts.length,
      attemptsLeft,
      canStart: blockedReason === null,
      blockedReason,
      passed,
      bestScore: graded.length ? Math.max(...graded.map((a) => a.score!)) : null,
      current: current ? toAttempt(current) : null,
      attempts: attempts.map((a) => ({
        id: a.id,
        number: a.number,
        startedAt: a.startedAt.toISOString(),
        submittedAt: a.submittedAt?.toISOString() ?? null,
        score: a.score,
        passed: a.passed,
      })),
    };
  }

  /** The attempt, locked with its enrollment (always in that order: no deadlocks). */
  async function lockOwnAttempt(tx: Executor, userId: string, attemptId: string, courseId: string) {
    const enrollment = await deps.enrollments.lockEnrollment(tx, userId, courseId);
    const attempt = await createAssessmentsRepository(tx).lockAttempt(attemptId);
    if (!attempt) throw attemptNotFound();
    if (attempt.enrollmentId !== enrollment.id) throw notYourAttempt();
    return { enrollment, attempt };
  }

  /** The course of an attempt of this learner's: 404 when unknown, 403 when another learner's. */
  async function ownAttemptCourse(userId: string, attemptId: string): Promise<string> {
    const owner = await createAssessmentsRepository(db).attemptOwner(attemptId);
    if (!owner) throw attemptNotFound();
    if (owner.userId !== userId || !owner.courseId) throw notYourAttempt();
    return owner.courseId;
  }

  /**
   * Attempts left under the course's limit and the grants; unlimited exams need no counting.
   * `used` is the learner's attempt count when the caller already has it.
   */
  async function attemptsLeftFor(
    tx: Executor,
    enrollment: EnrollmentRow,
    settings: Pick<ExamSettingsRow, "maxAttempts">,
    used?: number,
  ) {
    if (settings.maxAttempts === null) return null;
    const txRepo = createAssessmentsRepository(tx);
    const started = used ?? (await txRepo.attemptTally(enrollment.id)).used;
    const grants = (await txRepo.grantsOf([enrollment.id])).get(enrollment.id) ?? 0;
    return Math.max(0, settings.maxAttempts + grants - started);
  }

  const learner = (userId: string): Actor => ({ id: userId, role: "learner" });

  return {
    async status(userId: string, courseId: string): Promise<ExamStatus> {
      const order = await deps.courses.moduleIds(courseId);
      const status = await db.transaction(async (tx) =>
        statusIn(tx, await deps.enrollments.lockEnrollment(tx, userId, courseId), order, now()),
      );
      deps.enrollments.announce(userId);
      return status;
    },

    /**
     * Starts an attempt (201), or answers the one in progress (200) so a reload resumes it.
     * The learner's name and email come from the session, and are kept with the attempt.
     */
    async start(
      user: { id: string; name: string; email: string },
      courseId: string,
    ): Promise<{ attempt: Attempt; created: boolean }> {
      const userId = user.id;
      const order = await deps.courses.moduleIds(courseId);
      const at = now();
      const result = await db.transaction(async (tx) => {
        const txRepo = createAssessmentsRepository(tx);
        const enrollment = await deps.enrollments.lockEnrollment(tx, userId, courseId);
        const settings = settingsOrDefault(await txRepo.settingsOf(courseId));
        if (!settings.enabled) throw examDisabled();
        const open = await openAttemptIn(tx, enrollment, order, at);
        if (open) return { row: open, created: false };
        const tally = await txRepo.attemptTally(enrollment.id);
        if (tally.passed) throw alreadyPassed();
        if (!(await deps.enrollments.modulesDone(tx, enrollment, order))) throw examNotOpen();
        // The steps before it (an acknowledgement) and the validity of course and enrollment.
        await deps.enrollments.assertStepOpen(tx, enrollment, "exam", order);
        if ((await attemptsLeftFor(tx, enrollment, settings, tally.used)) === 0) {
          throw noAttemptsLeft();
        }
        const pool = await txRepo.finalPool(courseId);
        if (pool.length < settings.questionCount) {
          throw notEnoughQuestions(pool.length, settings.questionCount);
        }
        const row = await txRepo.insertAttempt({
          enrollmentId: enrollment.id,
          userId,
          courseId,
          learnerName: user.name,
          learnerEmail: user.email,
          number: tally.used + 1,
          startedAt: at,
          deadline: settings.timeLimitMinutes
            ? new Date(at.getTime() + settings.timeLimitMinutes * 60_000)
            : null,
          passMark: settings.passMark,
          revealAnswers: settings.revealAnswers,
          questions: drawVersion(pool, settings.questionCount),
        });
        await audit.append(tx, {
          type: "exam.attempt_started",
          actor: learner(userId),
          learnerId: userId,
          courseId,
          details: {
            enrollmentId: enrollment.id,
            attemptId: row.id,
            number: row.number,
            questionIds: row.questions.map((q) => q.id).join(","),
            deadline: row.deadline?.toISOString() ?? null,
          },
        });
        return { row, created: true };
      });
      deps.enrollments.announce(userId);
      return { attempt: toAttempt(result.row), created: result.created };
    },

    /** Saves the answers so far; past the deadline's grace the attempt is graded instead. */
    async saveAnswers(userId: string, attemptId: string, answers: Answer[]): Promise<void> {
      const courseId = await ownAttemptCourse(userId, attemptId);
      const order = await deps.courses.moduleIds(courseId);
      const at = now();
      const late = await db.transaction(async (tx) => {
        const { enrollment, attempt } = await lockOwnAttempt(tx, userId, attemptId, courseId);
        if (attempt.submittedAt) throw alreadySubmitted();
        if (overdue(attempt, at)) {
          await gradeIn(tx, {
            attempt,
            answers: attempt.answers,
            enrollment,
            order,
            actor: null,
            at,
          });
          return true;
        }
        const checked = toStoredAnswers(checkedAnswers(attempt.questions, answers));
        await createAssessmentsRepository(tx).updateAttempt(attempt.id, {
          answers: checked,
          answersSavedAt: at,
        });
        return false;
      });
      if (late) {
        deps.enrollments.announce(userId);
        throw timeUp();
      }
    },

    /**
     * Grades the attempt once. In time, the submitted answers count; past the deadline and
     * its grace, what was saved by then counts, whatever is sent now.
     */
    async submit(userId: string, attemptId: string, answers: Answer[]): Promise<SubmitResult> {
      const courseId = await ownAttemptCourse(userId, attemptId);
      const order = await deps.courses.moduleIds(courseId);
      const at = now();
      const result = await db.transaction(async (tx) => {
        const { enrollment, attempt } = await lockOwnAttempt(tx, userId, attemptId, courseId);
        if (attempt.submittedAt) throw alreadySubmitted();
        const final = overdue(attempt, at)
          ? attempt.answers
          : toStoredAnswers(checkedAnswers(attempt.questions, answers));
        const row = await gradeIn(tx, {
          attempt,
          answers: final,
          enrollment,
          order,
          actor: learner(userId),
          at,
        });
        const settings = settingsOrDefault(
          await createAssessmentsRepository(tx).settingsOf(courseId),
        );
        return { row, attemptsLeft: await attemptsLeftFor(tx, enrollment, settings) };
      });
      deps.enrollments.announce(userId);
      const { row } = result;
      return {
        score: row.score!,
        passed: row.passed!,
        passMark: row.passMark,
        attemptsLeft: result.attemptsLeft,
        review: reviewOf(row),
      };
    },

    /** A graded attempt's result page, for its learner. */
    async result(userId: string, attemptId: string): Promise<AttemptResult> {
      const row = await createAssessmentsRepository(db).findAttempt(attemptId);
      if (!row) throw attemptNotFound();
      if (row.userId !== userId || !row.courseId) throw notYourAttempt();
      if (!row.submittedAt || row.score === null || row.passed === null) throw notGradedYet();
      const { enrollmentId, courseId } = row;
      const attemptsLeft = enrollmentId
        ? await db.transaction(async (tx) => {
            const settings = settingsOrDefault(
              await createAssessmentsRepository(tx).settingsOf(courseId),
            );
            const enrollment = await deps.enrollments.lockEnrollmentById(tx, enrollmentId);
            return attemptsLeftFor(tx, enrollment, settings);
          })
        : 0;
      return {
        id: row.id,
        number: row.number,
        startedAt: row.startedAt.toISOString(),
        submittedAt: row.submittedAt.toISOString(),
        courseId: row.courseId,
        score: row.score,
        passed: row.passed,
        passMark: row.passMark,
        attemptsLeft,
        review: reviewOf(row),
      };
    },

    /** One more attempt for a learner, recorded with who granted it. */
    async grantExtraAttempt(enrollmentId: string, admin: { id: string }): Promise<void> {
      await db.transaction(async (tx) => {
        const enrollment = await deps.enrollments.lockEnrollmentById(tx, enrollmentId);
        const grant = await createAssessmentsRepository(tx).insertGrant(enrollment.id, admin.id);
        await audit.append(tx, {
          type: "exam.extra_attempt_granted",
          actor: { id: admin.id, role: "admin" },
          learnerId: enrollment.userId,
          courseId: enrollment.courseId,
          details: { enrollmentId: enrollment.id, grantId: grant.id },
        });
      });
    },
  };
}

export type ExamService = ReturnType<typeof createExamService>;

/** The final exam as a step of completion: required when enabled, done at the first pass. */
export const examRequirement: CompletionRequirement = {
  key: "exam",
  async isRequired(tx, courseId) {
    return settingsOrDefault(await createAssessmentsRepository(tx).settingsOf(courseId)).enabled;
  },
  async doneAt(tx, enrollment) {
    return (
      (await createAssessmentsRepository(tx).passedAttempt(enrollment.id))?.submittedAt ?? null
    );
  },
  async creditFacts(tx, enrollment) {
    const pass = await createAssessmentsRepository(tx).passedAttempt(enrollment.id);
    return pass?.score != null && pass.submittedAt
      ? { examScore: pass.score, examPassedAt: pass.submittedAt }
      : {};
  },
};
