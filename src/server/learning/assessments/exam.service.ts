import { LRUCache } from "lru-cache";
import {
  type Answer,
  type Attempt,
  type AttemptResult,
  EXAM_GRACE_SECONDS,
  type ExamStatus,
  type SubmitResult,
} from "../../../contract";
import type { Database, Executor } from "../../db/client";
import { newId } from "../../db/ids";
import type { Actor } from "../../platform";
import { defineStep, type StepUnit } from "../enrollments/completion-steps";
import type { EnrollmentsService } from "../enrollments/enrollments.service";
import { type AssessmentSettings, loadAssessmentSettings } from "./assessment-settings";
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
import { type AttemptOutcome, createAssessmentsRepository } from "./assessments.repository";
import {
  type ExamAttemptRow,
  type ExamSettingsRow,
  examAttempts,
  type StoredAnswer,
} from "./assessments.table";
import { checkedAnswers, drawVersion, grade, presented, toStoredAnswers } from "./grading";

/**
 * The final exam as a step of completion: required when enabled, done at the first pass;
 * the certificate records the passing score and time.
 */
export const examStep = defineStep<AssessmentSettings>({
  key: "exam",
  load: loadAssessmentSettings,
  record: {
    isRequired: ({ exam }) => exam.enabled,
    async doneAt(tx, enrollment) {
      return (
        (await createAssessmentsRepository(tx).passedAttempt(enrollment.id))?.submittedAt ?? null
      );
    },
  },
  async creditFacts(tx, enrollment) {
    const pass = await createAssessmentsRepository(tx).passedAttempt(enrollment.id);
    return pass?.score != null && pass.submittedAt
      ? { examScore: pass.score, examPassedAt: pass.submittedAt }
      : {};
  },
});

export interface ExamServiceDeps {
  db: Database;
  /** The unit of work every learner step runs in (ARCHITECTURE section 6). */
  enrollments: Pick<EnrollmentsService, "takeStep" | "withEnrollment">;
  /** The exam clock (deadlines); tests pass one they move by hand. */
  now?: () => Date;
}

const GRACE_MS = EXAM_GRACE_SECONDS * 1000;

/** What an attempt was started with: its owner, the version drawn, its deadline and marks. */
type DrawnAttempt = Omit<
  ExamAttemptRow,
  "answers" | "answersSavedAt" | "submittedAt" | "graded" | "score" | "passed"
>;

/** Attempts in progress this instance started or resumed (about 13 KB each). */
const DRAWN_KEPT = 2_000;

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
function reviewOf(
  row: Pick<ExamAttemptRow, "revealAnswers" | "passed" | "graded" | "answers" | "questions">,
): SubmitResult["review"] {
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
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  /**
   * What attempts in progress were started with never changes, so a save or a submission
   * in time takes it from here and writes the attempt without reading it first; whether it
   * is still in progress is decided by that write, under the enrollment's lock.
   */
  const drawn = new LRUCache<string, DrawnAttempt>({ max: DRAWN_KEPT });

  /** Past the deadline and its grace, an attempt is graded as it was saved. */
  const overdue = (row: Pick<ExamAttemptRow, "deadline">, at: Date) =>
    row.deadline !== null && at.getTime() > row.deadline.getTime() + GRACE_MS;

  /**
   * Grades an attempt and records it, in the unit of work (the enrollment and the attempt
   * are locked): one attempt gets one grade. The unit settles completion after it.
   */
  async function gradeIn(
    unit: StepUnit,
    input: { attempt: DrawnAttempt; answers: StoredAnswer[]; actor: Actor; at: Date },
  ) {
    const { attempt, answers, at } = input;
    const { graded, score } = grade(attempt.questions, answers);
    const passed = score >= attempt.passMark;
    const outcome = { answers, submittedAt: at, graded, score, passed };
    await writeOpen(unit, attempt.id, { outcome });
    drawn.delete(attempt.id);
    unit.audit({
      type: "exam.attempt_submitted",
      actor: input.actor,
      details: {
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
    return { ...attempt, ...outcome };
  }

  /** The open attempt, graded first if its time ran out (as saved at the deadline). */
  async function openAttemptIn(unit: StepUnit, at: Date): Promise<ExamAttemptRow | undefined> {
    const txRepo = createAssessmentsRepository(unit.tx);
    const open = await txRepo.openAttempt(unit.enrollment.id);
    if (!open) return undefined;
    if (!overdue(open, at)) return open;
    const locked = (await txRepo.lockAttempt(open.id))!;
    if (locked.submittedAt) return undefined;
    await gradeIn(unit, { attempt: locked, answers: locked.answers, actor: null, at });
    return undefined;
  }

  async function statusIn(unit: StepUnit, at: Date): Promise<ExamStatus> {
    const { tx, enrollment } = unit;
    const txRepo = createAssessmentsRepository(tx);
    const { exam: settings, finalPool } = unit.settingsOf(examStep);
    const current = settings.enabled ? await openAttemptIn(unit, at) : undefined;
    const attempts = await txRepo.attemptSummariesOf(enrollment.id);
    const pool = finalPool.length;
    const graded = attempts.filter((a) => a.score !== null);
    const passed = graded.some((a) => a.passed);
    const attemptsLeft = await attemptsLeftFor(tx, enrollment, settings);
    const blockedReason = !settings.enabled
      ? examDisabled().message
      : passed
        ? alreadyPassed().message
        : current
          ? null
          : !unit.modulesDone()
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

  /** The attempt of the unit's locked enrollment, locked too (always in that order: no deadlocks). */
  async function lockOwnAttempt(unit: StepUnit, attemptId: string) {
    const attempt = await createAssessmentsRepository(unit.tx).lockAttempt(attemptId);
    if (!attempt) throw attemptNotFound();
    if (attempt.enrollmentId !== unit.enrollment.id) throw notYourAttempt();
    return attempt;
  }

  /**
   * Writes an attempt still in progress (its answers saved, or its grade); one submitted
   * meanwhile (or gone) is refused as the attempt read under the lock says.
   */
  async function writeOpen(
    unit: StepUnit,
    attemptId: string,
    write: { answers: StoredAnswer[]; savedAt: Date } | { outcome: AttemptOutcome },
  ) {
    const repo = createAssessmentsRepository(unit.tx);
    const written =
      "outcome" in write
        ? await repo.gradeOpenAttempt(attemptId, write.outcome)
        : await repo.saveOpenAnswers(attemptId, write.answers, write.savedAt);
    if (written) return;
    await lockOwnAttempt(unit, attemptId);
    throw alreadySubmitted();
  }

  /** The course of an attempt of this learner's: 404 when unknown, 403 when another learner's. */
  async function ownAttemptCourse(userId: string, attemptId: string): Promise<string> {
    const owner =
      drawn.get(attemptId) ?? (await createAssessmentsRepository(db).attemptOwner(attemptId));
    if (!owner) throw attemptNotFound();
    if (owner.userId !== userId || !owner.courseId) throw notYourAttempt();
    return owner.courseId;
  }

  /**
   * Attempts left under the course's limit and the grants; unlimited exams need no counting.
   * `tally` is the learner's attempts and grants when the caller already has them.
   */
  async function attemptsLeftFor(
    tx: Executor,
    enrollment: StepUnit["enrollment"],
    settings: Pick<ExamSettingsRow, "maxAttempts">,
    tally?: { used: number; grants: number },
  ) {
    if (settings.maxAttempts === null) return null;
    const { used, grants } =
      tally ?? (await createAssessmentsRepository(tx).attemptTally(enrollment.id));
    return Math.max(0, settings.maxAttempts + grants - used);
  }

  const learner = (userId: string): Actor => ({ id: userId, role: "learner" });

  /**
   * Runs a write on the learner's attempt still in progress, in the exam step's unit of work
   * (the enrollment locked; every write of an attempt takes that lock first): a submitted
   * attempt takes no more writes. Past its deadline and grace, `late` holds the answers
   * saved by then, read under the lock.
   */
  async function onOpenAttempt<T>(
    userId: string,
    attemptId: string,
    at: Date,
    write: (
      unit: StepUnit,
      attempt: DrawnAttempt,
      late: { answers: StoredAnswer[] } | null,
    ) => Promise<T>,
  ): Promise<T> {
    const courseId = await ownAttemptCourse(userId, attemptId);
    return deps.enrollments.takeStep({
      userId,
      courseId,
      step: "exam",
      at,
      async write(unit) {
        const kept = drawn.get(attemptId);
        if (kept?.enrollmentId === unit.enrollment.id && !overdue(kept, at)) {
          return write(unit, kept, null);
        }
        const attempt = await lockOwnAttempt(unit, attemptId);
        if (attempt.submittedAt) throw alreadySubmitted();
        return write(unit, attempt, overdue(attempt, at) ? attempt : null);
      },
    });
  }

  return {
    /** Where the learner stands with the exam; an attempt whose time ran out is graded first. */
    status(userId: string, courseId: string): Promise<ExamStatus> {
      return deps.enrollments.withEnrollment({
        target: { userId, courseId },
        actor: null,
        at: now(),
        write: (unit) => statusIn(unit, unit.now),
      });
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
      const at = now();
      const result = await deps.enrollments.takeStep({
        userId,
        courseId,
        step: "exam",
        at,
        async write(unit) {
          const { tx, enrollment } = unit;
          const txRepo = createAssessmentsRepository(tx);
          const { exam: settings, finalPool: pool } = unit.settingsOf(examStep);
          if (!settings.enabled) throw examDisabled();
          let tally = await txRepo.attemptTally(enrollment.id);
          if (tally.openId) {
            const open = await openAttemptIn(unit, at);
            if (open) {
              unit.leavesStanding();
              return { row: open, created: false };
            }
            // Its time had run out: graded as saved, it counts as used (and may have passed).
            tally = await txRepo.attemptTally(enrollment.id);
          }
          if (tally.passed) throw alreadyPassed();
          if (!unit.modulesDone()) throw examNotOpen();
          // The steps before it (an acknowledgement, the review questions).
          await unit.assertInOrder();
          if ((await attemptsLeftFor(tx, enrollment, settings, tally)) === 0) {
            throw noAttemptsLeft();
          }
          if (pool.length < settings.questionCount) {
            throw notEnoughQuestions(pool.length, settings.questionCount);
          }
          const row: ExamAttemptRow = {
            id: newId(),
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
            answers: [],
            answersSavedAt: null,
            submittedAt: null,
            graded: null,
            score: null,
            passed: null,
          };
          // Written with the batch's other attempts: nothing below reads it back.
          unit.insertLater(examAttempts, row);
          unit.audit({
            type: "exam.attempt_started",
            details: {
              attemptId: row.id,
              number: row.number,
              questionIds: row.questions.map((q) => q.id).join(","),
              deadline: row.deadline?.toISOString() ?? null,
            },
          });
          // A new attempt changes no step's record: nothing to settle.
          unit.leavesStanding();
          return { row, created: true };
        },
      });
      drawn.set(result.row.id, result.row);
      return { attempt: toAttempt(result.row), created: result.created };
    },

    /** Saves the answers so far; past the deadline's grace the attempt is graded instead. */
    async saveAnswers(userId: string, attemptId: string, answers: Answer[]): Promise<void> {
      const at = now();
      const wasLate = await onOpenAttempt(userId, attemptId, at, async (unit, attempt, late) => {
        if (late) {
          await gradeIn(unit, { attempt, answers: late.answers, actor: null, at });
          return true;
        }
        const checked = toStoredAnswers(checkedAnswers(attempt.questions, answers));
        await writeOpen(unit, attempt.id, { answers: checked, savedAt: at });
        return false;
      });
      if (wasLate) throw timeUp();
    },

    /**
     * Grades the attempt once. In time, the submitted answers count; past the deadline and
     * its grace, what was saved by then counts, whatever is sent now.
     */
    async submit(userId: string, attemptId: string, answers: Answer[]): Promise<SubmitResult> {
      const at = now();
      const result = await onOpenAttempt(userId, attemptId, at, async (unit, attempt, late) => {
        const final = late
          ? late.answers
          : toStoredAnswers(checkedAnswers(attempt.questions, answers));
        const row = await gradeIn(unit, { attempt, answers: final, actor: learner(userId), at });
        // Only a pass can complete the course.
        if (!row.passed) unit.leavesStanding();
        const settings = unit.settingsOf(examStep).exam;
        return { row, attemptsLeft: await attemptsLeftFor(unit.tx, unit.enrollment, settings) };
      });
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
      const { enrollmentId } = row;
      const attemptsLeft = enrollmentId
        ? await deps.enrollments.withEnrollment({
            target: { enrollmentId },
            actor: null,
            write: (unit) =>
              attemptsLeftFor(unit.tx, unit.enrollment, unit.settingsOf(examStep).exam),
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
      const actor = { id: admin.id, role: "admin" } as const;
      await deps.enrollments.withEnrollment({
        target: { enrollmentId },
        actor,
        async write(unit) {
          const repo = createAssessmentsRepository(unit.tx);
          const grant = await repo.insertGrant(unit.enrollment.id, admin.id);
          unit.audit({ type: "exam.extra_attempt_granted", details: { grantId: grant.id } });
        },
      });
    },
  };
}

export type ExamService = ReturnType<typeof createExamService>;
