import type { AttemptSummary, ExamStatus } from "@contract";
import {
  CircleAlertIcon,
  CircleCheckIcon,
  InfoIcon,
  PlayIcon,
  RotateCwIcon,
  TrophyIcon,
} from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Badge } from "../../../../components/ui/badge";
import { Button } from "../../../../components/ui/button";
import { Spinner } from "../../../../components/ui/spinner";
import { useDates } from "../../../../lib/dates";
import { plural } from "../../../../lib/format";
import { ExamFacts } from "./exam-facts";

/**
 * Before an attempt: the rules told in advance (the pass mark first, as accreditors require),
 * the attempts so far, and Start, Resume, the reason it cannot start, or the pass.
 */
export function ExamIntro({
  status,
  certificate,
  onStart,
  starting,
  startError,
}: {
  status: ExamStatus;
  certificate?: ReactNode;
  onStart: () => void;
  starting: boolean;
  startError: string | null;
}) {
  return (
    <div className="grid gap-6">
      {status.passed ? (
        <section
          aria-labelledby="exam-passed-title"
          data-testid="exam-passed"
          className="flex flex-col gap-4 rounded-2xl border border-emerald-200 bg-gradient-to-br from-emerald-50 to-white p-5 sm:flex-row sm:items-center sm:p-6"
        >
          <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-emerald-600 text-white">
            <TrophyIcon className="size-6" aria-hidden="true" />
          </span>
          <div className="grid min-w-0 flex-1 gap-1">
            <h2 id="exam-passed-title" className="text-lg font-semibold text-zinc-950">
              You passed the final exam
            </h2>
            <p className="text-sm text-zinc-700">
              {status.bestScore !== null ? `Your best score is ${status.bestScore}%. ` : ""}
              The course is complete.
            </p>
          </div>
          {certificate}
        </section>
      ) : null}

      <section
        aria-labelledby="exam-rules-title"
        className="grid gap-5 rounded-2xl border border-zinc-200 bg-white p-5 shadow-xs shadow-zinc-950/5 sm:p-6"
      >
        <div className="grid gap-1">
          <h2 id="exam-rules-title" className="text-lg font-semibold text-zinc-950">
            About this exam
          </h2>
          <p className="text-[15px] font-medium text-indigo-800" data-testid="exam-pass-mark">
            You need {status.passMark}% to pass
          </p>
        </div>
        <ExamFacts status={status} showAttemptsUsed />
        <ul className="grid gap-2 text-sm leading-relaxed text-zinc-700">
          <Rule>
            {plural(status.questionCount, "question")} {status.questionCount === 1 ? "is" : "are"}{" "}
            drawn for each attempt, so a new attempt may ask different questions.
          </Rule>
          <Rule>Your answers are saved as you go; you can leave and resume the attempt.</Rule>
          {status.timeLimitMinutes !== null ? (
            <Rule>
              You have {plural(status.timeLimitMinutes, "minute")} from the moment you start. The
              clock keeps running if you leave the page, and when the time is up the attempt is
              graded as saved.
            </Rule>
          ) : null}
          <Rule>Unanswered questions count as incorrect.</Rule>
        </ul>

        {status.passed ? null : status.current ? (
          <div className="flex flex-col gap-3 rounded-xl bg-indigo-50 p-4 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm font-medium text-indigo-950">
              You have an attempt in progress (attempt {status.current.number}).
            </p>
            <Button onClick={onStart} disabled={starting}>
              {starting ? <Spinner /> : <RotateCwIcon aria-hidden="true" />}
              Resume attempt
            </Button>
          </div>
        ) : status.canStart ? (
          <div>
            <Button size="lg" onClick={onStart} disabled={starting} className="w-full sm:w-auto">
              {starting ? <Spinner /> : <PlayIcon aria-hidden="true" />}
              Start exam
            </Button>
          </div>
        ) : status.blockedReason ? (
          <p
            data-testid="exam-blocked"
            className="flex items-start gap-2 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm font-medium text-amber-950"
          >
            <CircleAlertIcon className="mt-0.5 size-4 shrink-0 text-amber-700" aria-hidden="true" />
            {status.blockedReason}
          </p>
        ) : null}
        {startError ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {startError}
          </p>
        ) : null}
      </section>

      {status.attempts.length ? <PastAttempts attempts={status.attempts} /> : null}
    </div>
  );
}

function Rule({ children }: { children: ReactNode }) {
  return (
    <li className="flex items-start gap-2">
      <InfoIcon className="mt-1 size-3.5 shrink-0 text-zinc-500" aria-hidden="true" />
      <span>{children}</span>
    </li>
  );
}

function PastAttempts({ attempts }: { attempts: AttemptSummary[] }) {
  const dates = useDates();
  // Newest first: the latest outcome is what the learner looks for.
  const ordered = [...attempts].sort((a, b) => b.number - a.number);
  return (
    <section
      aria-labelledby="exam-attempts-title"
      className="overflow-hidden rounded-2xl border border-zinc-200 bg-white shadow-xs shadow-zinc-950/5"
    >
      <h2
        id="exam-attempts-title"
        className="border-b border-zinc-100 px-5 py-4 text-base font-semibold text-zinc-950 sm:px-6"
      >
        Your attempts
      </h2>
      <ul className="divide-y divide-zinc-100">
        {ordered.map((attempt) => (
          <li
            key={attempt.id}
            data-testid="exam-attempt-row"
            className="flex flex-wrap items-center gap-x-4 gap-y-2 px-5 py-3.5 sm:px-6"
          >
            <div className="grid min-w-0 flex-1 gap-0.5">
              <span className="text-sm font-medium text-zinc-900">Attempt {attempt.number}</span>
              <span className="text-xs text-zinc-600">
                {attempt.submittedAt
                  ? `Submitted ${dates.date(attempt.submittedAt)}`
                  : `Started ${dates.date(attempt.startedAt)}`}
              </span>
            </div>
            {attempt.score !== null ? (
              <span className="text-sm font-semibold text-zinc-950 tabular-nums">
                {attempt.score}%
              </span>
            ) : null}
            {attempt.passed === true ? (
              <Badge variant="success">
                <CircleCheckIcon aria-hidden="true" />
                Passed
              </Badge>
            ) : attempt.passed === false ? (
              <Badge variant="destructive">Failed</Badge>
            ) : (
              <Badge variant="secondary">In progress</Badge>
            )}
            {attempt.submittedAt ? (
              <Button asChild variant="link" size="sm">
                <Link to={{ search: `?result=${encodeURIComponent(attempt.id)}` }}>
                  View result<span className="sr-only"> of attempt {attempt.number}</span>
                </Link>
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
