import type { ExamStatus } from "@contract";
import { plural } from "../../../../lib/format";
import { cn } from "../../../../lib/utils";

/** "2 of 3", or "Unlimited" when the exam allows any number of attempts. */
export function attemptsLeftText(status: Pick<ExamStatus, "attemptsLeft" | "maxAttempts">) {
  if (status.attemptsLeft === null) return "Unlimited";
  return status.maxAttempts === null
    ? String(status.attemptsLeft)
    : `${status.attemptsLeft} of ${status.maxAttempts}`;
}

export const examPath = (courseId: string) => `/courses/${encodeURIComponent(courseId)}/exam`;

/** The exam's rules as a learner reads them before starting: told in advance, never a surprise. */
export function ExamFacts({
  status,
  showAttemptsUsed = false,
  className,
}: {
  status: ExamStatus;
  showAttemptsUsed?: boolean;
  className?: string;
}) {
  const facts: [string, string][] = [
    ["Pass mark", `${status.passMark}%`],
    ["Questions", String(status.questionCount)],
    [
      "Time limit",
      status.timeLimitMinutes === null ? "None" : plural(status.timeLimitMinutes, "minute"),
    ],
    ...(showAttemptsUsed
      ? [["Attempts used", String(status.attemptsUsed)] as [string, string]]
      : []),
    ["Attempts left", attemptsLeftText(status)],
  ];
  return (
    <dl
      className={cn(
        "grid grid-cols-2 gap-px overflow-hidden rounded-xl border border-zinc-200 bg-zinc-200 sm:grid-cols-4",
        // An odd last fact fills its row on phones rather than leaving a grey hole.
        "[&>div:last-child:nth-child(odd)]:col-span-2 sm:[&>div:last-child:nth-child(odd)]:col-span-1",
        showAttemptsUsed && "sm:grid-cols-5",
        className,
      )}
    >
      {facts.map(([term, value]) => (
        <div key={term} className="grid gap-0.5 bg-white px-4 py-3">
          <dt className="text-xs font-medium text-zinc-600">{term}</dt>
          <dd className="text-base font-semibold text-zinc-950 tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
