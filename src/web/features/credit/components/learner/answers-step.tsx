import {
  type Activity,
  COMPLETION_STEP_LABELS,
  type CompletionStepKey,
  type ErrorCode,
  type EvaluationAnswersBody,
  type EvaluationItem,
} from "@contract";
import {
  type QueryKey,
  type UseMutationResult,
  type UseQueryOptions,
  useQuery,
} from "@tanstack/react-query";
import type { LucideIcon } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef } from "react";
import { errorCodeOf, type Idempotent } from "../../../../lib/api-client";
import { useDocumentTitle } from "../../../../lib/use-document-title";
import { useSingleSubmit } from "../../../../lib/use-single-submit";
import { useActivity } from "../../api/get-activity";
import { useCourseCompletion } from "../../api/get-course-completion";
import { AnswersForm } from "./answers-form";
import { CompletionChecklist } from "./completion-checklist";
import {
  CreditCourseNotFound,
  CreditPage,
  CreditPageError,
  CreditPageSkeleton,
  courseOutOfReach,
} from "./credit-page";
import { NotAsked, StepGate } from "./step-notices";

/** Sends the learner's answers to a step's form once (a key per opening of the page). */
export type SubmitAnswers = UseMutationResult<
  void,
  Error,
  Idempotent<{ courseId: string; body: EvaluationAnswersBody }>
>;

/** What the route gives a step's page: the course's title, the certificate, the news of a step done. */
export type StepPageProps = {
  courseId: string;
  courseTitle?: string;
  /** The certificate download once the course is complete (certificates feature). */
  certificateAction?: ReactNode;
  /** The answers were recorded: they may have completed the course. */
  onSubmitted?: () => void;
};

/**
 * A step whose record is the learner's answers to the course's form (the evaluation, a form
 * step), under the step's label: the form when the course asks for it and the step is open,
 * why not otherwise, and once answered, what `done` shows above the completion checklist.
 */
export function AnswersStep<F extends { items: EvaluationItem[] }, K extends QueryKey>({
  courseId,
  courseTitle,
  certificateAction,
  onSubmitted,
  step,
  description,
  submitLabel,
  formQueryOptions,
  isAsked,
  isAnswered,
  notAsked,
  staleCodes,
  submit,
  done,
}: StepPageProps & {
  step: CompletionStepKey;
  description: string;
  submitLabel: string;
  /**
   * The step's form, read here with the page's other reads: a result read in one component
   * and shown by another can miss its update.
   */
  formQueryOptions: UseQueryOptions<F, Error, F, K>;
  /** Whether the course asks this learner for the step. */
  isAsked: (activity: Activity, form: F) => boolean;
  isAnswered: (form: F) => boolean;
  /** The page's words when the course does not ask for the step. */
  notAsked: string;
  /** Refusals that say the form on screen is out of date (answered from another tab…). */
  staleCodes: readonly ErrorCode[];
  /** Held by the page, not by the form: the form goes away once the answers are recorded. */
  submit: SubmitAnswers;
  /** What the page shows once the answers are recorded; `thanked` just now, on this page. */
  done: (form: F, thanked: boolean) => ReactNode;
}) {
  const title = COMPLETION_STEP_LABELS[step];
  const name = title.toLowerCase();
  useDocumentTitle(courseTitle ? `${title} · ${courseTitle}` : title);
  const activityQuery = useActivity(courseId);
  const formQuery = useQuery(formQueryOptions);
  const completionQuery = useCourseCompletion(courseId);
  const thanked = submit.isSuccess;
  // One key for the page's form: a double click or a retry records the answers once.
  const single = useSingleSubmit(courseId);
  const queries = [activityQuery, formQuery, completionQuery];

  function send(body: EvaluationAnswersBody) {
    void single((idempotencyKey) =>
      submit
        .mutateAsync(
          { courseId, body, idempotencyKey },
          {
            onSuccess: () => onSubmitted?.(),
            // The refusal says which part of the page is out of date: read that part again.
            onError: (error) => {
              const code = errorCodeOf(error);
              // Sent from another tab: the page shows it as sent.
              if (code && staleCodes.includes(code)) void formQuery.refetch();
              // An earlier step is not done (any more): the gate shows which.
              else if (code === "credit.step_out_of_order") void completionQuery.refetch();
              // The activity or the enrollment has closed: the expiry banner explains it.
              else if (code === "credit.expired" || code === "credit.enrollment_expired") {
                void activityQuery.refetch();
              }
            },
          },
        )
        // The refusal is handled by onError above.
        .catch(() => undefined),
    );
  }

  const failed = queries.find((q) => q.isError);
  if (failed && courseOutOfReach(failed.error)) return <CreditCourseNotFound />;

  let body: ReactNode;
  if (failed) {
    body = (
      <CreditPageError
        what={`the ${name}`}
        error={failed.error}
        onRetry={() => {
          for (const q of queries) {
            if (q.isError) void q.refetch();
          }
        }}
      />
    );
  } else if (!activityQuery.data || !formQuery.data || !completionQuery.data) {
    body = <CreditPageSkeleton />;
  } else if (!isAsked(activityQuery.data, formQuery.data) || formQuery.data.items.length === 0) {
    body = <NotAsked courseId={courseId} message={notAsked} />;
  } else if (thanked || isAnswered(formQuery.data)) {
    body = (
      <div className="grid gap-6">
        {done(formQuery.data, thanked)}
        <CompletionChecklist courseId={courseId} certificateAction={certificateAction} />
      </div>
    );
  } else {
    body = (
      <StepGate activity={activityQuery.data} completion={completionQuery.data} step={step}>
        <AnswersForm
          items={formQuery.data.items}
          label={title}
          submitLabel={submitLabel}
          failure={`Your ${name} could not be sent. Check your connection and try again.`}
          onSend={send}
          pending={submit.isPending}
          error={submit.isError ? submit.error : null}
        />
      </StepGate>
    );
  }

  return (
    <CreditPage
      courseId={courseId}
      courseTitle={courseTitle}
      title={title}
      description={description}
    >
      {body}
    </CreditPage>
  );
}

/** The step is recorded: said with the step's icon, and read out when it just happened. */
export function StepDone({
  icon: Icon,
  thanked,
  title,
  testId,
  children,
}: {
  icon: LucideIcon;
  thanked: boolean;
  title: string;
  testId: string;
  /** Under the title: what the record means, when it was made. */
  children: ReactNode;
}) {
  const ref = useRef<HTMLElement>(null);
  const titleId = useId();
  // The form and its Submit button are gone: the thanks take the focus, and are read out.
  useEffect(() => {
    if (thanked) ref.current?.focus();
  }, [thanked]);
  return (
    <section
      ref={ref}
      tabIndex={-1}
      aria-labelledby={titleId}
      data-testid={testId}
      className="flex items-start gap-4 rounded-2xl border border-emerald-200 bg-gradient-to-br from-emerald-50 to-white p-5 outline-none focus-visible:ring-2 focus-visible:ring-emerald-500 focus-visible:ring-offset-2 sm:p-6"
    >
      <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-emerald-600 text-white">
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <div className="grid min-w-0 gap-1">
        <h2 id={titleId} className="text-lg font-semibold text-zinc-950">
          {title}
        </h2>
        <p className="text-sm text-zinc-700">{children}</p>
      </div>
    </section>
  );
}
