import { randomInt } from "node:crypto";
import type { Answer, PresentedQuestion, QuestionKind } from "../../../contract";
import { answeredTwice, notPresented, oneOptionOnly } from "./assessments.errors";
import type {
  GradedQuestion,
  QuestionRow,
  QuestionSnapshot,
  StoredAnswer,
  StoredOption,
} from "./assessments.table";

/** Fisher–Yates with a cryptographic source: a learner cannot predict the next version. */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * One version of the exam: `count` questions drawn at random from the pool, each with its
 * options shuffled, except true/false, whose "True, False" order is part of its meaning.
 */
export function drawVersion(pool: readonly QuestionRow[], count: number): QuestionSnapshot[] {
  return shuffled(pool)
    .slice(0, count)
    .map((q) => ({
      id: q.id,
      kind: q.kind,
      text: q.text,
      options: q.kind === "true_false" ? q.options : shuffled(q.options),
      explanation: q.explanation,
    }));
}

/** What a learner may see before answering: no correct flags, feedback or explanation. */
export function presented(question: {
  id: string;
  kind: QuestionKind;
  text: string;
  options: StoredOption[];
}): PresentedQuestion {
  return {
    id: question.id,
    kind: question.kind,
    text: question.text,
    options: question.options.map((o) => ({ id: o.id, text: o.text })),
  };
}

/**
 * Checks answers against what was presented and returns them keyed by question, in
 * canonical form (each option once). Names of questions or options that were not
 * presented, two answers to one question, or several options for a one-answer question,
 * are refused.
 */
export function checkedAnswers(
  shown: readonly { id: string; kind: QuestionKind; options: { id: string }[] }[],
  answers: readonly Answer[],
): Map<string, string[]> {
  const byId = new Map(shown.map((q) => [q.id, q]));
  const out = new Map<string, string[]>();
  for (const answer of answers) {
    const question = byId.get(answer.questionId);
    if (!question) throw notPresented();
    if (out.has(answer.questionId)) throw answeredTwice();
    const optionIds = [...new Set(answer.optionIds)];
    const known = new Set(question.options.map((o) => o.id));
    if (optionIds.some((id) => !known.has(id))) throw notPresented();
    if (question.kind !== "multiple" && optionIds.length > 1) throw oneOptionOnly();
    out.set(answer.questionId, optionIds);
  }
  return out;
}

/** A question scores only when exactly its correct set is chosen: no partial credit. */
export function isCorrect(options: readonly StoredOption[], chosen: readonly string[]): boolean {
  const correct = options.filter((o) => o.correct).map((o) => o.id);
  return correct.length === chosen.length && correct.every((id) => chosen.includes(id));
}

/** Correct questions over questions drawn, as a whole percent rounded half up. */
export function scoreOf(correct: number, drawn: number): number {
  if (drawn === 0) return 0;
  // Integer arithmetic: (200·c + d) / 2d floored is c/d·100 rounded half up, with no float error.
  return Math.floor((200 * correct + drawn) / (2 * drawn));
}

export function grade(questions: readonly QuestionSnapshot[], answers: readonly StoredAnswer[]) {
  const chosen = new Map(answers.map((a) => [a.questionId, a.optionIds]));
  const graded: GradedQuestion[] = questions.map((q) => ({
    questionId: q.id,
    correct: isCorrect(q.options, chosen.get(q.id) ?? []),
  }));
  const score = scoreOf(graded.filter((g) => g.correct).length, questions.length);
  return { graded, score };
}

export const toStoredAnswers = (answers: Map<string, string[]>): StoredAnswer[] =>
  [...answers].map(([questionId, optionIds]) => ({ questionId, optionIds }));
