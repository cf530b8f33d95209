import type { QuestionPool, RevealAnswers } from "@contract";

/** When learners see the right answers after submitting an attempt. */
export const REVEAL_LABELS: Record<RevealAnswers, string> = {
  never: "Never",
  after_pass: "After passing",
  always: "After every attempt",
};

export const POOL_LABELS: Record<QuestionPool, string> = {
  final: "Final exam",
  review: "Review",
};

export const ASSESSMENT_TOASTS = {
  error: "Error",
  settingsSaved: "Exam settings saved",
  questionAdded: "Question added",
  questionSaved: "Question saved",
  questionDeleted: "Question deleted",
  attemptGranted: "Another attempt granted",
  imported: (n: number) => `${n} ${n === 1 ? "question" : "questions"} imported`,
} as const;
