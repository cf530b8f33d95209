import type { ExamResults } from "../../../contract";
import type { Database } from "../../db/client";
import { csvRow } from "../../lib/csv";
import { courseNotFound } from "./assessments.errors";
import { createAssessmentsRepository } from "./assessments.repository";
import { settingsOrDefault } from "./questions.service";

/** The attempts the results page lists, newest first; the summary counts every attempt. */
const MAX_LISTED_ATTEMPTS = 5000;

const seconds = (from: Date, to: Date | null) =>
  to ? Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000)) : null;
const percent = (part: number, whole: number) =>
  whole ? Math.floor((200 * part + whole) / (2 * whole)) : null;

/**
 * A course's exam results for administrators: per learner (attempts, scores, durations),
 * per course (pass rate, average score, attempts to pass) and per question (how many
 * answered it correctly), from the attempts' own records.
 */
export function createExamResults(deps: {
  db: Database;
  courses: { findRow(id: string): Promise<{ id: string } | undefined> };
}) {
  const repo = createAssessmentsRepository(deps.db);

  async function results(courseId: string): Promise<ExamResults> {
    if (!(await deps.courses.findRow(courseId))) throw courseNotFound();
    const [figures, items, attempts, bank, settingsRow] = await Promise.all([
      repo.courseFigures(courseId),
      repo.itemFigures(courseId),
      repo.gradedAttemptsOfCourse(courseId, MAX_LISTED_ATTEMPTS),
      repo.questionsOf(courseId),
      repo.settingsOf(courseId),
    ]);
    const settings = settingsOrDefault(settingsRow);
    const byLearner = new Map<string, typeof attempts>();
    for (const a of attempts) {
      const key = a.enrollmentId ?? `removed:${a.learnerEmail}`;
      byLearner.set(key, [...(byLearner.get(key) ?? []), a]);
    }
    const grants = await repo.grantsOf(
      attempts.flatMap((a) => (a.enrollmentId ? [a.enrollmentId] : [])),
    );
    const learners = [...byLearner.values()].map((rows) => {
      const sorted = [...rows].sort((a, b) => a.number - b.number);
      const first = sorted[0]!;
      const graded = sorted.filter((a) => a.score !== null);
      const extra = first.enrollmentId ? (grants.get(first.enrollmentId) ?? 0) : 0;
      return {
        enrollmentId: first.enrollmentId,
        userId: first.userId,
        name: first.learnerName,
        email: first.learnerEmail,
        passed: graded.some((a) => a.passed),
        bestScore: graded.length ? Math.max(...graded.map((a) => a.score!)) : null,
        attemptsLeft:
          settings.maxAttempts === null || !first.enrollmentId
            ? null
            : Math.max(0, settings.maxAttempts + extra - sorted.length),
        extraAttempts: extra,
        attempts: sorted.map((a) => ({
          id: a.id,
          number: a.number,
          startedAt: a.startedAt.toISOString(),
          submittedAt: a.submittedAt?.toISOString() ?? null,
          durationSeconds: seconds(a.startedAt, a.submittedAt),
          score: a.score,
          passed: a.passed,
        })),
      };
    });
    // Questions still in the bank first (in its order), then ones since deleted, by the
    // text an attempt showed.
    const shown = new Map<string, string>();
    for (const a of attempts) for (const q of a.questions) shown.set(q.id, q.text);
    const itemById = new Map(items.map((i) => [i.questionId, i]));
    const ids = [
      ...bank.filter((q) => q.pool === "final").map((q) => q.id),
      ...items.map((i) => i.questionId).filter((id) => !bank.some((q) => q.id === id)),
    ];
    const textOf = new Map(bank.map((q) => [q.id, q.text]));
    return {
      courseId,
      summary: {
        learners: figures.learners,
        attempts: figures.attempts,
        passed: figures.passedLearners,
        passRate: percent(figures.passedLearners, figures.learners),
        averageScore: figures.averageScore,
        averageAttemptsToPass: figures.averageAttemptsToPass,
      },
      learners,
      questions: ids.map((id) => {
        const item = itemById.get(id);
        return {
          questionId: id,
          text: textOf.get(id) ?? shown.get(id) ?? "(deleted question)",
          presented: item?.presented ?? 0,
          answeredCorrectly: item?.correct ?? 0,
          percentCorrect: item ? percent(item.correct, item.presented) : null,
        };
      }),
    };
  }

  return {
    results,

    /** The results as CSV: one view per file (attempts, questions, or the course summary). */
    async *csv(courseId: string, view: "attempts" | "questions" | "summary") {
      const r = await results(courseId);
      if (view === "summary") {
        yield csvRow([
          "Learners",
          "Attempts",
          "Passed",
          "Pass rate (%)",
          "Average score (%)",
          "Average attempts to pass",
        ]);
        const s = r.summary;
        yield csvRow([
          s.learners,
          s.attempts,
          s.passed,
          s.passRate,
          s.averageScore,
          s.averageAttemptsToPass,
        ]);
        return;
      }
      if (view === "questions") {
        yield csvRow(["Question", "Times drawn", "Answered correctly", "Correct (%)"]);
        for (const q of r.questions) {
          yield csvRow([q.text, q.presented, q.answeredCorrectly, q.percentCorrect]);
        }
        return;
      }
      yield csvRow([
        "Learner",
        "Email",
        "Attempt",
        "Started",
        "Submitted",
        "Duration (s)",
        "Score (%)",
        "Passed",
      ]);
      for (const l of r.learners) {
        for (const a of l.attempts) {
          yield csvRow([
            l.name,
            l.email,
            a.number,
            a.startedAt,
            a.submittedAt,
            a.durationSeconds,
            a.score,
            a.passed === null ? null : a.passed ? "yes" : "no",
          ]);
        }
      }
    },
  };
}

export type ExamResultsService = ReturnType<typeof createExamResults>;
