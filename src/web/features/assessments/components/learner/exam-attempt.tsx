import type { Answer, Attempt, SubmitResult } from "@contract";
import { CircleAlertIcon, CircleCheckIcon, CloudIcon, SendIcon } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { Button } from "../../../../components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../../components/ui/dialog";
import { Progress } from "../../../../components/ui/progress";
import { Spinner } from "../../../../components/ui/spinner";
import { toast } from "../../../../components/ui/use-toast";
import { errorCodeOf, getErrorMessage } from "../../../../lib/api-client";
import { plural } from "../../../../lib/format";
import { useSaveExamAnswers } from "../../api/save-exam-answers";
import { useSubmitExamAttempt } from "../../api/submit-exam-attempt";
import { ExamCountdown } from "./exam-countdown";
import {
  type AnswerMap,
  answerMapOf,
  answersOf,
  countAnswered,
  QuestionFieldset,
} from "./question-fieldset";

type SaveState = "saved" | "saving" | "failed";

/** Why the server takes no more answers for an attempt this page still shows. */
export type ClosedReason = "exam.attempt_submitted" | "exam.deadline_passed";

/** The reason when a refusal says the attempt is closed; null for any other failure. */
function closedReason(error: unknown): ClosedReason | null {
  const code = errorCodeOf(error);
  switch (code) {
    // Submitted from another tab or device.
    case "exam.attempt_submitted":
    // Past the deadline and its grace: graded with the answers saved by then.
    case "exam.deadline_passed":
      return code;
    default:
      return null;
  }
}

/**
 * Sends the latest answers whenever they change, one request at a time: while a save is on
 * its way, later changes wait and only the newest of them is sent after it. Stops for good
 * once the attempt is being submitted.
 */
function useAutosave(attemptId: string, onClosed: (reason: ClosedReason) => void) {
  const { mutateAsync: save } = useSaveExamAnswers();
  const [state, setState] = useState<SaveState>("saved");
  const queued = useRef<Answer[] | null>(null);
  const inFlight = useRef(false);
  const stopped = useRef(false);
  const onClosedRef = useRef(onClosed);
  useEffect(() => {
    onClosedRef.current = onClosed;
  }, [onClosed]);

  const flush = useCallback(async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    try {
      while (queued.current && !stopped.current) {
        const answers = queued.current;
        queued.current = null;
        setState("saving");
        try {
          await save({ attemptId, answers });
        } catch (error) {
          if (stopped.current) return;
          const reason = closedReason(error);
          if (reason) {
            stopped.current = true;
            onClosedRef.current(reason);
            return;
          }
          // Kept for the next change or a retry; nothing is lost until the page is closed.
          queued.current ??= answers;
          setState("failed");
          return;
        }
      }
      if (!stopped.current) setState("saved");
    } finally {
      inFlight.current = false;
    }
  }, [attemptId, save]);

  return {
    state,
    queue(answers: Answer[]) {
      queued.current = answers;
      void flush();
    },
    retry() {
      void flush();
    },
    stop() {
      stopped.current = true;
    },
    resume() {
      stopped.current = false;
    },
  };
}

/** The attempt in progress: numbered questions, saved as the learner goes, then submitted. */
export function ExamAttempt({
  courseId,
  attempt,
  onGraded,
  onClosed,
}: {
  courseId: string;
  attempt: Attempt;
  onGraded: (result: SubmitResult, options: { timedOut: boolean }) => void;
  /** The server no longer takes answers for this attempt: show its result, and why. */
  onClosed: (reason: ClosedReason) => void;
}) {
  const { questions } = attempt;
  const [answers, setAnswers] = useState<AnswerMap>(() => answerMapOf(attempt.answers));
  const answersRef = useRef(answers);
  const autosave = useAutosave(attempt.id, onClosed);
  const submit = useSubmitExamAttempt();
  const [confirming, setConfirming] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const answered = countAnswered(questions, answers);
  const unanswered = questions.length - answered;

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  function onAnswer(questionId: string, optionIds: string[]) {
    const next = { ...answersRef.current, [questionId]: optionIds };
    answersRef.current = next;
    setAnswers(next);
    autosave.queue(answersOf(questions, next));
  }

  async function onSubmit(timedOut: boolean) {
    if (submit.isPending) return;
    autosave.stop();
    try {
      const result = await submit.mutateAsync({
        courseId,
        attemptId: attempt.id,
        answers: answersOf(questions, answersRef.current),
      });
      setConfirming(false);
      onGraded(result, { timedOut });
    } catch (error) {
      const reason = closedReason(error);
      if (reason) {
        setConfirming(false);
        onClosed(reason);
        return;
      }
      autosave.resume();
      toast({
        variant: "destructive",
        title: "Could not submit your exam",
        description:
          getErrorMessage(error) ?? "Your answers are kept. Check your connection and try again.",
      });
    }
  }

  return (
    <div className="grid gap-6">
      <div className="sticky top-16 z-20 -mx-4 border-b border-zinc-200 bg-white/95 px-4 py-3 backdrop-blur sm:-mx-6 sm:px-6 lg:-mx-10 lg:px-10">
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <div className="grid min-w-40 flex-1 gap-1.5">
            <p className="flex items-baseline justify-between gap-3 text-sm">
              <span id="exam-answered-label" className="font-medium text-zinc-800">
                {answered} of {questions.length} answered
              </span>
              <SaveStatus state={autosave.state} onRetry={autosave.retry} />
            </p>
            <Progress
              value={questions.length ? (answered / questions.length) * 100 : 0}
              aria-labelledby="exam-answered-label"
              className="h-1.5"
            />
          </div>
          {attempt.deadline ? (
            <ExamCountdown deadline={attempt.deadline} onExpire={() => void onSubmit(true)} />
          ) : null}
        </div>
      </div>

      <div className="grid gap-1">
        <h2
          ref={headingRef}
          tabIndex={-1}
          className="text-lg font-semibold text-zinc-950 outline-none"
        >
          Attempt {attempt.number}
        </h2>
        <p className="text-sm text-zinc-600">
          Your answers are saved as you go. You can leave and come back to this attempt
          {attempt.deadline ? " before the time runs out." : "."}
        </p>
      </div>

      <ol className="grid gap-4">
        {questions.map((question, i) => (
          <li
            key={question.id}
            className="rounded-2xl border border-zinc-200 bg-white p-4 shadow-xs shadow-zinc-950/5 sm:p-6"
          >
            <QuestionFieldset
              question={question}
              number={i + 1}
              total={questions.length}
              value={answers[question.id] ?? []}
              onChange={(optionIds) => onAnswer(question.id, optionIds)}
              disabled={submit.isPending}
            />
          </li>
        ))}
      </ol>

      <div className="flex flex-col gap-3 rounded-2xl border border-zinc-200 bg-white p-4 sm:flex-row sm:items-center sm:justify-between sm:p-5">
        <p className="text-sm text-zinc-700">
          {unanswered
            ? `${plural(unanswered, "question")} not answered yet.`
            : "Every question is answered."}
        </p>
        <Button size="lg" onClick={() => setConfirming(true)} disabled={submit.isPending}>
          {submit.isPending ? <Spinner /> : <SendIcon aria-hidden="true" />}
          Submit exam
        </Button>
      </div>

      <Dialog open={confirming} onOpenChange={(open) => !submit.isPending && setConfirming(open)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Submit your exam?</DialogTitle>
            <DialogDescription>
              {unanswered
                ? `You have ${plural(unanswered, "unanswered question")}. Unanswered questions count as incorrect.`
                : `You have answered all ${plural(questions.length, "question")}.`}{" "}
              Once submitted, your answers cannot be changed.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline" disabled={submit.isPending}>
                Keep answering
              </Button>
            </DialogClose>
            <Button onClick={() => void onSubmit(false)} disabled={submit.isPending}>
              {submit.isPending ? <Spinner /> : <SendIcon aria-hidden="true" />}
              Submit exam
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}

function SaveStatus({ state, onRetry }: { state: SaveState; onRetry: () => void }) {
  // Not a live region: announcing every save would interrupt the reading of each question.
  // Only a failure is announced, as it needs the learner's attention.
  if (state === "failed") {
    return (
      <span role="alert" className="inline-flex items-center gap-1.5 text-xs text-red-800">
        <CircleAlertIcon className="size-3.5 text-red-600" aria-hidden="true" />
        Not saved.
        <button
          type="button"
          onClick={onRetry}
          className="rounded-sm font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          Retry
        </button>
      </span>
    );
  }
  return (
    <span
      data-testid="exam-save-state"
      className="inline-flex items-center gap-1.5 text-xs text-zinc-600"
    >
      {state === "saving" ? (
        <CloudIcon className="size-3.5" aria-hidden="true" />
      ) : (
        <CircleCheckIcon className="size-3.5 text-emerald-600" aria-hidden="true" />
      )}
      {state === "saving" ? "Saving…" : "Answers saved"}
    </span>
  );
}
