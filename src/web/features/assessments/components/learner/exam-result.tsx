import { ASSESSMENT_MESSAGES, type ReviewedQuestion, type SubmitResult } from "@contract";
import {
  ArrowLeftIcon,
  CheckIcon,
  CircleCheckIcon,
  CircleXIcon,
  RotateCcwIcon,
  TimerOffIcon,
  TrophyIcon,
} from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import { Link } from "react-router";
import { Badge } from "../../../../components/ui/badge";
import { Button } from "../../../../components/ui/button";
import { Spinner } from "../../../../components/ui/spinner";
import { useDates } from "../../../../lib/dates";
import { cn } from "../../../../lib/utils";
import { attemptsLeftText } from "./exam-facts";

/** A graded attempt: score, pass mark, the verdict, what comes next and, if allowed, the answers. */
export function ExamResult({
  courseId,
  result,
  attemptNumber,
  submittedAt,
  timedOut = false,
  certificate,
  afterPass,
  onTryAgain,
  tryAgainPending = false,
}: {
  courseId: string;
  result: SubmitResult;
  attemptNumber?: number;
  submittedAt?: string;
  timedOut?: boolean;
  /** The certificate download, once the course is complete. */
  certificate?: ReactNode;
  /** After a pass: the course complete, or the next step it asks for (credit feature). */
  afterPass?: ReactNode;
  onTryAgain: () => void;
  tryAgainPending?: boolean;
}) {
  const dates = useDates();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const canRetry = !result.passed && result.attemptsLeft !== 0;

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  return (
    <div className="grid gap-6">
      <section
        aria-labelledby="exam-result-title"
        data-testid="exam-result"
        data-passed={result.passed}
        className={cn(
          "grid gap-5 rounded-2xl border p-5 shadow-xs sm:p-6",
          result.passed
            ? "border-emerald-200 bg-gradient-to-br from-emerald-50 to-white"
            : "border-zinc-200 bg-white",
        )}
      >
        <div className="flex flex-col gap-5 sm:flex-row sm:items-center">
          <span
            className={cn(
              "flex size-14 shrink-0 items-center justify-center rounded-2xl",
              result.passed ? "bg-emerald-600 text-white" : "bg-zinc-100 text-zinc-600",
            )}
          >
            {result.passed ? (
              <TrophyIcon className="size-7" aria-hidden="true" />
            ) : (
              <CircleXIcon className="size-7" aria-hidden="true" />
            )}
          </span>
          <div className="grid min-w-0 flex-1 gap-1">
            <h2
              id="exam-result-title"
              ref={headingRef}
              tabIndex={-1}
              className="text-lg font-semibold text-zinc-950 outline-none"
            >
              {attemptNumber ? `Attempt ${attemptNumber} result` : "Your result"}
            </h2>
            <p className="text-sm leading-relaxed text-zinc-700">
              {result.passed
                ? "Congratulations, you passed the final exam."
                : `You did not reach the pass mark of ${result.passMark}%.`}
              {submittedAt ? ` Submitted on ${dates.date(submittedAt)}.` : ""}
            </p>
          </div>
        </div>

        {timedOut ? (
          <p className="flex items-center gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
            <TimerOffIcon className="size-4 shrink-0" aria-hidden="true" />
            Time was up, so your exam was submitted with the answers you had given.
          </p>
        ) : null}

        <dl className="grid grid-cols-2 gap-px overflow-hidden rounded-xl border border-zinc-200 bg-zinc-200 sm:grid-cols-4">
          <div className="grid gap-0.5 bg-white px-4 py-3">
            <dt className="text-xs font-medium text-zinc-600">Your score</dt>
            <dd
              className="text-2xl font-semibold text-zinc-950 tabular-nums"
              data-testid="exam-score"
            >
              {result.score}%
            </dd>
          </div>
          <div className="grid gap-0.5 bg-white px-4 py-3">
            <dt className="text-xs font-medium text-zinc-600">Pass mark</dt>
            <dd className="text-2xl font-semibold text-zinc-950 tabular-nums">
              {result.passMark}%
            </dd>
          </div>
          <div className="grid gap-1 bg-white px-4 py-3">
            <dt className="text-xs font-medium text-zinc-600">Result</dt>
            <dd>
              {result.passed ? (
                <Badge variant="success" className="text-sm">
                  <CircleCheckIcon aria-hidden="true" />
                  Passed
                </Badge>
              ) : (
                <Badge variant="destructive" className="text-sm">
                  <CircleXIcon aria-hidden="true" />
                  Failed
                </Badge>
              )}
            </dd>
          </div>
          <div className="grid gap-0.5 bg-white px-4 py-3">
            <dt className="text-xs font-medium text-zinc-600">Attempts left</dt>
            <dd className="text-2xl font-semibold text-zinc-950 tabular-nums">
              {result.passed
                ? "—"
                : attemptsLeftText({ attemptsLeft: result.attemptsLeft, maxAttempts: null })}
            </dd>
          </div>
        </dl>

        {result.passed && afterPass ? afterPass : null}

        {!result.passed && !canRetry ? (
          <p className="text-sm font-medium text-zinc-800">{ASSESSMENT_MESSAGES.noAttemptsLeft}</p>
        ) : null}

        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
          {result.passed && certificate ? certificate : null}
          {canRetry ? (
            <Button onClick={onTryAgain} disabled={tryAgainPending}>
              {tryAgainPending ? <Spinner /> : <RotateCcwIcon aria-hidden="true" />}
              Try again
            </Button>
          ) : null}
          <Button asChild variant="outline">
            <Link to={`/course/${encodeURIComponent(courseId)}`}>
              <ArrowLeftIcon aria-hidden="true" />
              Back to course
            </Link>
          </Button>
        </div>
      </section>

      {result.review ? (
        <section aria-labelledby="exam-review-title" className="grid gap-4">
          <h2 id="exam-review-title" className="text-lg font-semibold text-zinc-950">
            Your answers
          </h2>
          <ol className="grid gap-4">
            {result.review.map((question, i) => (
              <ReviewedQuestionItem
                key={question.questionId}
                question={question}
                number={i + 1}
                total={result.review?.length ?? 0}
              />
            ))}
          </ol>
        </section>
      ) : (
        <p className="rounded-xl border border-dashed border-zinc-300 bg-white px-4 py-3 text-sm text-zinc-600">
          The correct answers are not shown for this attempt.
        </p>
      )}
    </div>
  );
}

function ReviewedQuestionItem({
  question,
  number,
  total,
}: {
  question: ReviewedQuestion;
  number: number;
  total: number;
}) {
  return (
    <li
      data-testid="reviewed-question"
      className="grid gap-3 rounded-2xl border border-zinc-200 bg-white p-4 shadow-xs shadow-zinc-950/5 sm:p-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-xs font-semibold tracking-wide text-indigo-700 uppercase">
          Question {number} of {total}
        </h3>
        {question.correct ? (
          <Badge variant="success">
            <CircleCheckIcon aria-hidden="true" />
            Correct
          </Badge>
        ) : (
          <Badge variant="destructive">
            <CircleXIcon aria-hidden="true" />
            Incorrect
          </Badge>
        )}
      </div>
      <p className="text-[15px] leading-relaxed font-medium whitespace-pre-line text-zinc-950">
        {question.text}
      </p>
      <ul className="grid gap-2">
        {question.options.map((option) => {
          const chosen = question.chosenOptionIds.includes(option.id);
          return (
            <li
              key={option.id}
              className={cn(
                "grid gap-1.5 rounded-xl border px-3.5 py-3 text-sm",
                option.correct
                  ? "border-emerald-300 bg-emerald-50/70"
                  : chosen
                    ? "border-red-300 bg-red-50/70"
                    : "border-zinc-200 bg-white",
              )}
            >
              <div className="flex items-start gap-3">
                <span
                  aria-hidden="true"
                  className={cn(
                    "mt-0.5 flex size-4 shrink-0 items-center justify-center border",
                    question.kind === "multiple" ? "rounded-[5px]" : "rounded-full",
                    chosen ? "border-zinc-800 bg-zinc-800 text-white" : "border-zinc-400 bg-white",
                  )}
                >
                  {chosen ? <CheckIcon className="size-3" strokeWidth={3} /> : null}
                </span>
                <span className="min-w-0 flex-1 leading-relaxed break-words whitespace-pre-line text-zinc-900">
                  {option.text}
                </span>
              </div>
              {chosen || option.correct ? (
                <div className="flex flex-wrap gap-1.5 pl-7">
                  {chosen ? <Badge variant="outline">Your answer</Badge> : null}
                  {option.correct ? <Badge variant="success">Correct answer</Badge> : null}
                </div>
              ) : null}
              {option.feedback && (chosen || option.correct) ? (
                <p className="pl-7 leading-relaxed whitespace-pre-line text-zinc-700">
                  {option.feedback}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
      {question.explanation ? (
        <p className="rounded-lg bg-zinc-50 p-3 text-sm leading-relaxed whitespace-pre-line text-zinc-700">
          <span className="font-semibold text-zinc-900">Why: </span>
          {question.explanation}
        </p>
      ) : null}
    </li>
  );
}
