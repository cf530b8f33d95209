import { type EvaluationItem, type FormStep, LIKERT_LABELS } from "@contract";
import { useId } from "react";

/**
 * The learner's own answers as they sent them, read-only: each item of the form they saw, in
 * its order, with the rating in words or the text as written.
 */
export function GivenAnswers({
  items,
  answers,
}: {
  items: EvaluationItem[];
  answers: NonNullable<FormStep["answers"]>;
}) {
  const titleId = useId();
  const byItem = new Map(answers.map((a) => [a.itemId, a.value]));
  return (
    <section
      aria-labelledby={titleId}
      data-testid="given-answers"
      className="grid gap-4 rounded-2xl border border-zinc-200 bg-white p-5 shadow-xs shadow-zinc-950/5 sm:p-6"
    >
      <h2 id={titleId} className="text-base font-semibold text-zinc-950">
        Your answers
      </h2>
      <dl className="grid gap-4">
        {items.map((item, i) => {
          const value = byItem.get(item.id);
          return (
            <div
              key={item.id}
              data-testid="given-answer"
              className="grid gap-1.5 border-t border-zinc-100 pt-4 first:border-0 first:pt-0"
            >
              <dt className="text-sm font-medium text-zinc-950">
                <span className="text-zinc-500">{i + 1}. </span>
                {item.text}
              </dt>
              <dd className="text-[15px] break-words whitespace-pre-wrap text-zinc-800">
                {value === undefined ? (
                  <span className="text-zinc-500">Not answered</span>
                ) : typeof value === "number" ? (
                  <span className="inline-flex items-center gap-2">
                    <span className="flex size-6 items-center justify-center rounded-md bg-indigo-50 text-xs font-semibold text-indigo-800 tabular-nums ring-1 ring-indigo-200">
                      {value}
                    </span>
                    {LIKERT_LABELS[value - 1]}
                  </span>
                ) : (
                  value
                )}
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}
