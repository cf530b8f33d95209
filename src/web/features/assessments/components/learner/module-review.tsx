import type { PresentedQuestion, ReviewResult } from "@contract";
import { CircleCheckIcon, CircleXIcon, ListChecksIcon, RotateCcwIcon } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Badge } from "../../../../components/ui/badge";
import { Button } from "../../../../components/ui/button";
import { LoadError } from "../../../../components/ui/load-error";
import { Spinner } from "../../../../components/ui/spinner";
import { getErrorMessage, loadFailureHint } from "../../../../lib/api-client";
import { plural } from "../../../../lib/format";
import { useAnswerReview } from "../../api/answer-review";
import { useReview } from "../../api/get-review";
import { type AnswerMap, answersOf, countAnswered, QuestionFieldset } from "./question-fieldset";

/**
 * The review questions under a module's video: the learner answers, the server grades and
 * explains. Renders nothing for a module without review questions, so courses without
 * assessments look exactly as before.
 */
export function ModuleReview({ courseId, moduleId }: { courseId: string; moduleId: string }) {
  const reviewQuery = useReview(courseId, moduleId);

  // Nothing while loading: most modules have no review, and a placeholder would only flash.
  if (reviewQuery.isPending) return null;
  if (reviewQuery.isError) {
    return (
      <LoadError
        message={loadFailureHint(
          reviewQuery.error,
          "We couldn't load this module's review questions.",
        )}
        onRetry={() => void reviewQuery.refetch()}
      />
    );
  }
  if (!reviewQuery.data.questions.length) return null;
  return (
    <ReviewCard
      key={moduleId}
      courseId={courseId}
      moduleId={moduleId}
      questions={reviewQuery.data.questions}
      answered={reviewQuery.data.answered}
    />
  );
}

function ReviewCard({
  courseId,
  moduleId,
  questions,
  answered,
}: {
  courseId: string;
  moduleId: string;
  questions: PresentedQuestion[];
  answered: boolean;
}) {
  const titleId = useId();
  const answerReview = useAnswerReview();
  const [answers, setAnswers] = useState<AnswerMap>({});
  const [results, setResults] = useState<ReviewResult["results"] | null>(null);
  // An answered review starts folded; the learner may open it and answer again.
  const [reopened, setReopened] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const [focusForm, setFocusForm] = useState(false);

  const byQuestion = new Map(results?.map((r) => [r.questionId, r]));
  const correctCount = results?.filter((r) => r.correct).length ?? 0;

  useEffect(() => {
    if (results) summaryRef.current?.focus();
  }, [results]);

  useEffect(() => {
    if (!focusForm) return;
    formRef.current?.querySelector<HTMLInputElement>("input")?.focus();
    setFocusForm(false);
  }, [focusForm]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (countAnswered(questions, answers) < questions.length) {
      setError("Answer every question before checking your answers.");
      return;
    }
    setError(null);
    try {
      const result = await answerReview.mutateAsync({
        courseId,
        moduleId,
        answers: answersOf(questions, answers),
      });
      setResults(result.results);
    } catch (caught) {
      setError(getErrorMessage(caught) ?? "Your answers could not be checked. Please try again.");
    }
  }

  function answerAgain() {
    setAnswers({});
    setResults(null);
    setError(null);
    setReopened(true);
    setFocusForm(true);
  }

  const folded = answered && !reopened && !results;

  return (
    <section
      aria-labelledby={titleId}
      data-testid="module-review"
      className="grid gap-4 rounded-xl border border-zinc-200 bg-zinc-50/70 p-4 sm:p-5"
    >
      <div className="flex items-start gap-3">
        <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-indigo-100 text-indigo-700">
          <ListChecksIcon className="size-4.5" aria-hidden="true" />
        </span>
        <div className="grid gap-0.5">
          <h3 id={titleId} className="text-base leading-tight font-semibold text-zinc-950">
            Review questions
          </h3>
          <p className="text-sm text-zinc-600">
            {plural(questions.length, "question")} to check what you learned in this module.
          </p>
        </div>
      </div>

      {folded ? (
        <div className="flex flex-col gap-3 rounded-lg border border-emerald-200 bg-emerald-50/70 p-3.5 sm:flex-row sm:items-center sm:justify-between">
          <p className="flex items-center gap-2 text-sm font-medium text-emerald-900">
            <CircleCheckIcon className="size-4 shrink-0 text-emerald-600" aria-hidden="true" />
            You have answered these review questions.
          </p>
          <Button variant="outline" size="sm" onClick={answerAgain} className="bg-white">
            <RotateCcwIcon aria-hidden="true" />
            Answer again
          </Button>
        </div>
      ) : (
        <form ref={formRef} onSubmit={(e) => void onSubmit(e)} className="grid gap-5">
          <ol className="grid gap-5">
            {questions.map((question, i) => {
              const result = byQuestion.get(question.id);
              return (
                <li
                  key={question.id}
                  className="rounded-xl border border-zinc-200 bg-white p-4 shadow-xs shadow-zinc-950/5"
                >
                  <QuestionFieldset
                    question={question}
                    number={i + 1}
                    total={questions.length}
                    value={answers[question.id] ?? []}
                    onChange={(optionIds) => {
                      setAnswers((current) => ({ ...current, [question.id]: optionIds }));
                      setError(null);
                    }}
                    disabled={results !== null || answerReview.isPending}
                  >
                    {result ? (
                      <ReviewOutcome correct={result.correct} feedback={result.feedback} />
                    ) : null}
                  </QuestionFieldset>
                </li>
              );
            })}
          </ol>

          {error ? (
            <p role="alert" className="text-sm font-medium text-red-700">
              {error}
            </p>
          ) : null}

          {results ? (
            <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
              <p
                ref={summaryRef}
                tabIndex={-1}
                role="status"
                data-testid="review-score"
                className="text-sm font-semibold text-zinc-900 outline-none"
              >
                You answered {correctCount} of {plural(results.length, "question")} correctly.
              </p>
              <Button variant="outline" onClick={answerAgain}>
                <RotateCcwIcon aria-hidden="true" />
                Answer again
              </Button>
            </div>
          ) : (
            <div>
              <Button type="submit" disabled={answerReview.isPending}>
                {answerReview.isPending ? <Spinner /> : null}
                Check answers
              </Button>
            </div>
          )}
        </form>
      )}
    </section>
  );
}

function ReviewOutcome({ correct, feedback }: { correct: boolean; feedback: string | null }) {
  return (
    <div
      data-testid="review-outcome"
      className={
        correct
          ? "mt-3 grid gap-1.5 rounded-lg bg-emerald-50 p-3 text-sm"
          : "mt-3 grid gap-1.5 rounded-lg bg-red-50 p-3 text-sm"
      }
    >
      {correct ? (
        <Badge variant="success" className="w-fit">
          <CircleCheckIcon aria-hidden="true" />
          Correct
        </Badge>
      ) : (
        <Badge variant="destructive" className="w-fit">
          <CircleXIcon aria-hidden="true" />
          Incorrect
        </Badge>
      )}
      {feedback ? (
        <p className="leading-relaxed whitespace-pre-line text-zinc-800">{feedback}</p>
      ) : null}
    </div>
  );
}
