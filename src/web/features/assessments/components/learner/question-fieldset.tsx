import type { Answer, PresentedQuestion } from "@contract";
import { type ReactNode, useId } from "react";
import { cn } from "../../../../lib/utils";

/** The options chosen so far, by question id. */
export type AnswerMap = Record<string, string[]>;

export const answerMapOf = (answers: readonly Answer[]): AnswerMap =>
  Object.fromEntries(answers.map((a) => [a.questionId, a.optionIds]));

/** The answers to send: only questions with a choice, in the order they were presented. */
export const answersOf = (questions: readonly PresentedQuestion[], map: AnswerMap): Answer[] =>
  questions
    .filter((q) => (map[q.id]?.length ?? 0) > 0)
    .map((q) => ({ questionId: q.id, optionIds: map[q.id] ?? [] }));

export const countAnswered = (questions: readonly PresentedQuestion[], map: AnswerMap) =>
  questions.filter((q) => (map[q.id]?.length ?? 0) > 0).length;

const HINT: Record<PresentedQuestion["kind"], string> = {
  single: "Choose one answer.",
  true_false: "Choose true or false.",
  multiple: "Choose every answer that applies.",
};

/**
 * One question as a group of radio buttons (one answer) or checkboxes (several), labelled by
 * its number and text so a screen reader names the group before its options.
 */
export function QuestionFieldset({
  question,
  number,
  total,
  value,
  onChange,
  disabled = false,
  children,
}: {
  question: PresentedQuestion;
  number: number;
  total: number;
  value: readonly string[];
  onChange: (optionIds: string[]) => void;
  disabled?: boolean;
  /** Shown under the options, e.g. the graded outcome and its feedback. */
  children?: ReactNode;
}) {
  const id = useId();
  const multiple = question.kind === "multiple";

  function toggle(optionId: string, checked: boolean) {
    if (!multiple) {
      onChange([optionId]);
      return;
    }
    // Keep the presented order, so saved answers do not depend on the order of clicks.
    const next = new Set(value);
    if (checked) next.add(optionId);
    else next.delete(optionId);
    onChange(question.options.filter((o) => next.has(o.id)).map((o) => o.id));
  }

  return (
    <fieldset
      aria-describedby={`${id}-hint`}
      data-testid="question"
      className="min-w-0"
      disabled={disabled}
    >
      <legend className="w-full">
        <span className="mb-1 block text-xs font-semibold tracking-wide text-indigo-700 uppercase">
          Question {number} of {total}
        </span>
        <span className="block text-[15px] leading-relaxed font-medium whitespace-pre-line text-zinc-950">
          {question.text}
        </span>
      </legend>
      <p id={`${id}-hint`} className="mt-1 text-xs text-zinc-600">
        {HINT[question.kind]}
      </p>
      <div className="mt-3 grid gap-2">
        {question.options.map((option) => {
          const checked = value.includes(option.id);
          return (
            <label
              key={option.id}
              className={cn(
                "flex cursor-pointer items-start gap-3 rounded-xl border border-zinc-200 bg-white px-3.5 py-3 text-sm leading-relaxed text-zinc-800 transition-colors",
                "hover:border-zinc-300 hover:bg-zinc-50",
                "has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500 has-[:focus-visible]:ring-offset-1",
                checked &&
                  "border-indigo-400 bg-indigo-50/70 hover:border-indigo-400 hover:bg-indigo-50",
                disabled && "cursor-default hover:border-zinc-200 hover:bg-white",
                disabled && checked && "hover:border-indigo-400 hover:bg-indigo-50/70",
              )}
            >
              <input
                type={multiple ? "checkbox" : "radio"}
                name={`${id}-options`}
                value={option.id}
                checked={checked}
                onChange={(event) => toggle(option.id, event.target.checked)}
                className="mt-[3px] size-4 shrink-0 accent-indigo-600 focus-visible:outline-none"
              />
              <span className="min-w-0 break-words whitespace-pre-line">{option.text}</span>
            </label>
          );
        })}
      </div>
      {children}
    </fieldset>
  );
}
