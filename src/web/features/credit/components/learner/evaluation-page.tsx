import {
  CREDIT_MESSAGES,
  EVALUATION_TEXT_ANSWER_MAX,
  type EvaluationAnswersBody,
  type EvaluationItem,
  LIKERT_LABELS,
} from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { HeartHandshakeIcon, SendIcon } from "lucide-react";
import { type ReactNode, useEffect, useId, useMemo, useRef } from "react";
import { type FieldErrors, type UseFormRegister, useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { Button } from "../../../../components/ui/button";
import { Label } from "../../../../components/ui/label";
import { Spinner } from "../../../../components/ui/spinner";
import { Textarea } from "../../../../components/ui/textarea";
import { errorCodeOf, getErrorMessage } from "../../../../lib/api-client";
import { useDocumentTitle } from "../../../../lib/use-document-title";
import { useSingleSubmit } from "../../../../lib/use-single-submit";
import { cn } from "../../../../lib/utils";
import { useActivity } from "../../api/get-activity";
import { useCourseCompletion } from "../../api/get-course-completion";
import { useEvaluation } from "../../api/get-evaluation";
import { useSubmitEvaluation } from "../../api/submit-evaluation";
import { CompletionChecklist } from "./completion-checklist";
import {
  CreditCourseNotFound,
  CreditPage,
  CreditPageError,
  CreditPageSkeleton,
  courseOutOfReach,
} from "./credit-page";
import { NotAsked, StepGate } from "./step-notices";

/** A radio group left unanswered reads as null (react-hook-form), a text item as a string. */
type Answers = Record<string, string | null>;

/** The form's field for the item at `index` (item ids are the server's, not field paths). */
const fieldName = (index: number) => `item${index}`;

/** Each item's rule: a rating from 1 to 5 or a comment within the limit, required or not. */
function answersSchema(items: EvaluationItem[]) {
  return z.object(
    Object.fromEntries(
      items.map((item, i): [string, z.ZodType<string | null, string | null>] => {
        if (item.kind === "likert") {
          const rating = z.string().nullable();
          return [fieldName(i), item.required ? rating.refine(Boolean, "Choose a rating") : rating];
        }
        const text = z
          .string()
          .trim()
          .max(
            EVALUATION_TEXT_ANSWER_MAX,
            `An answer must be at most ${EVALUATION_TEXT_ANSWER_MAX} characters`,
          );
        return [fieldName(i), item.required ? text.min(1, "Write an answer") : text];
      }),
    ),
  );
}

/** The request body: answered items only, ratings as numbers. */
function answersBody(items: EvaluationItem[], values: Answers): EvaluationAnswersBody {
  const answers: EvaluationAnswersBody["answers"] = [];
  items.forEach((item, i) => {
    const value = (values[fieldName(i)] ?? "").trim();
    if (!value) return;
    answers.push({ itemId: item.id, value: item.kind === "likert" ? Number(value) : value });
  });
  return { answers };
}

/**
 * The course evaluation accreditors ask for: rating items on a five-point scale and free-text
 * items, sent once. Afterwards, thanks and the way on to the next step.
 */
export function EvaluationPage({
  courseId,
  courseTitle,
  certificateAction,
  onSubmitted,
}: {
  courseId: string;
  courseTitle?: string;
  /** The certificate download once the course is complete (certificates feature). */
  certificateAction?: ReactNode;
  /** The evaluation was recorded: it may have completed the course. */
  onSubmitted?: () => void;
}) {
  useDocumentTitle(courseTitle ? `Evaluation · ${courseTitle}` : "Evaluation");
  const activityQuery = useActivity(courseId);
  const formQuery = useEvaluation(courseId);
  const completionQuery = useCourseCompletion(courseId);
  // Held here, not in the form: the form goes away as soon as the answer is recorded.
  const submit = useSubmitEvaluation();
  const thanked = submit.isSuccess;
  // One key for the page's form: a double click or a retry records one evaluation.
  const single = useSingleSubmit(courseId);

  function send(body: EvaluationAnswersBody) {
    void single((idempotencyKey) =>
      submit
        .mutateAsync(
          { courseId, body, idempotencyKey },
          {
            onSuccess: () => onSubmitted?.(),
            // The refusal says which part of the page is out of date: read that part again.
            onError: (error) => {
              switch (errorCodeOf(error)) {
                // Sent from another tab: the page shows it as sent.
                case "evaluation.already_submitted":
                  void formQuery.refetch();
                  break;
                // An earlier step is not done (any more): the gate shows which.
                case "credit.step_out_of_order":
                  void completionQuery.refetch();
                  break;
                // The activity or the enrollment has closed: the expiry banner explains it.
                case "credit.expired":
                case "credit.enrollment_expired":
                  void activityQuery.refetch();
                  break;
                default:
                  break;
              }
            },
          },
        )
        // The refusal is handled by onError above.
        .catch(() => undefined),
    );
  }

  const failed = [activityQuery, formQuery, completionQuery].find((q) => q.isError);
  if (failed && courseOutOfReach(failed.error)) return <CreditCourseNotFound />;

  let body: ReactNode;
  if (failed) {
    body = (
      <CreditPageError
        what="the evaluation"
        error={failed.error}
        onRetry={() => {
          for (const q of [activityQuery, formQuery, completionQuery]) {
            if (q.isError) void q.refetch();
          }
        }}
      />
    );
  } else if (!activityQuery.data || !formQuery.data || !completionQuery.data) {
    body = <CreditPageSkeleton />;
  } else if (!activityQuery.data.evaluationRequired || formQuery.data.items.length === 0) {
    body = <NotAsked courseId={courseId} message={CREDIT_MESSAGES.evaluationNotAsked} />;
  } else if (thanked || formQuery.data.submitted) {
    body = (
      <Submitted thanked={thanked}>
        <CompletionChecklist courseId={courseId} certificateAction={certificateAction} />
      </Submitted>
    );
  } else {
    body = (
      <StepGate activity={activityQuery.data} completion={completionQuery.data} step="evaluation">
        <EvaluationForm
          items={formQuery.data.items}
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
      title="Evaluation"
      description="Tell us how this activity worked for you. Your answers are reported without your name."
    >
      {body}
    </CreditPage>
  );
}

type SendProps = {
  onSend: (body: EvaluationAnswersBody) => void;
  pending: boolean;
  error: Error | null;
};

function EvaluationForm({
  items,
  onSend,
  pending,
  error,
}: { items: EvaluationItem[] } & SendProps) {
  const schema = useMemo(() => answersSchema(items), [items]);
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<Answers>({
    resolver: zodResolver(schema),
    defaultValues: Object.fromEntries(items.map((_, i) => [fieldName(i), ""])),
  });
  const values = useWatch({ control });
  const anyRequired = items.some((item) => item.required);

  const onSubmit = handleSubmit((answers) => onSend(answersBody(items, answers)));

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Evaluation"
      className="grid gap-5 rounded-2xl border border-zinc-200 bg-white p-5 shadow-xs shadow-zinc-950/5 sm:p-6"
    >
      {anyRequired ? (
        <p className="text-sm text-zinc-600">
          Items marked <RequiredMark /> are required.
        </p>
      ) : null}
      <ol className="grid gap-6">
        {items.map((item, i) => (
          <li
            key={item.id}
            className="grid border-t border-zinc-100 pt-5 first:border-0 first:pt-0"
          >
            {item.kind === "likert" ? (
              <LikertItem
                item={item}
                number={i + 1}
                name={fieldName(i)}
                register={register}
                errors={errors}
              />
            ) : (
              <TextItem
                item={item}
                number={i + 1}
                name={fieldName(i)}
                register={register}
                errors={errors}
                length={(values[fieldName(i)] ?? "").length}
              />
            )}
          </li>
        ))}
      </ol>
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {getErrorMessage(error) ??
            "Your evaluation could not be sent. Check your connection and try again."}
        </p>
      ) : null}
      <div className="border-t border-zinc-100 pt-5">
        <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={pending}>
          {pending ? <Spinner /> : <SendIcon aria-hidden="true" />}
          Submit evaluation
        </Button>
      </div>
    </form>
  );
}

type ItemProps = {
  item: EvaluationItem;
  number: number;
  name: string;
  register: UseFormRegister<Answers>;
  errors: FieldErrors<Answers>;
};

function RequiredMark() {
  return (
    <>
      <span aria-hidden="true" className="font-semibold text-red-700">
        *
      </span>
      <span className="sr-only">(required)</span>
    </>
  );
}

function ItemText({ item, number }: { item: EvaluationItem; number: number }) {
  return (
    <span className="text-[15px] leading-relaxed font-medium text-zinc-950">
      <span className="text-zinc-500">{number}. </span>
      {item.text}
      {item.required ? (
        <>
          {" "}
          <RequiredMark />
        </>
      ) : null}
    </span>
  );
}

/** A rating from 1 to 5, each labelled (Strongly disagree to Strongly agree). */
function LikertItem({ item, number, name, register, errors }: ItemProps) {
  const id = useId();
  const error = errors[name]?.message;
  return (
    <fieldset
      className="grid min-w-0 gap-3"
      aria-describedby={error ? `${id}-error` : undefined}
      data-testid="evaluation-item"
    >
      <legend className="mb-3 w-full">
        <ItemText item={item} number={number} />
      </legend>
      <div className="grid gap-2 sm:grid-cols-5">
        {LIKERT_LABELS.map((label, i) => (
          <label
            key={label}
            className={cn(
              "flex cursor-pointer items-center gap-3 rounded-xl border border-zinc-200 bg-white px-3.5 py-2 text-sm text-zinc-800 transition-colors",
              "hover:border-zinc-300 hover:bg-zinc-50",
              "has-[:checked]:border-indigo-400 has-[:checked]:bg-indigo-50/70 has-[:checked]:text-indigo-950",
              "has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500 has-[:focus-visible]:ring-offset-1",
              "sm:flex-col sm:gap-1.5 sm:px-2 sm:py-3 sm:text-center",
            )}
          >
            <input
              type="radio"
              value={String(i + 1)}
              className="size-4 shrink-0 accent-indigo-600 focus-visible:outline-none"
              {...register(name)}
            />
            <span className="flex items-baseline gap-2 sm:grid sm:justify-items-center sm:gap-0.5">
              <span className="w-3 text-xs font-semibold text-zinc-500 tabular-nums sm:w-auto sm:text-sm sm:text-zinc-900">
                {i + 1}
              </span>
              <span className="leading-tight">{label}</span>
            </span>
          </label>
        ))}
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-xs font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** A comment, with the characters left. */
function TextItem({
  item,
  number,
  name,
  register,
  errors,
  length,
}: ItemProps & { length: number }) {
  const id = useId();
  const error = errors[name]?.message;
  return (
    <div className="grid gap-2.5" data-testid="evaluation-item">
      <Label htmlFor={id} className="leading-relaxed font-normal">
        <ItemText item={item} number={number} />
      </Label>
      <Textarea
        id={id}
        rows={4}
        maxLength={EVALUATION_TEXT_ANSWER_MAX}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-count ${id}-error` : `${id}-count`}
        {...register(name)}
      />
      <div className="flex items-start justify-between gap-3">
        {error ? (
          <p id={`${id}-error`} role="alert" className="text-xs font-medium text-red-700">
            {error}
          </p>
        ) : (
          <span />
        )}
        <p id={`${id}-count`} className="shrink-0 text-xs text-zinc-600 tabular-nums">
          {length} / {EVALUATION_TEXT_ANSWER_MAX} characters
        </p>
      </div>
    </div>
  );
}

function Submitted({ thanked, children }: { thanked: boolean; children: ReactNode }) {
  const ref = useRef<HTMLElement>(null);
  // The form and its Submit button are gone: the thanks take the focus, and are read out.
  useEffect(() => {
    if (thanked) ref.current?.focus();
  }, [thanked]);
  return (
    <div className="grid gap-6">
      <section
        ref={ref}
        tabIndex={-1}
        aria-labelledby="evaluation-done-title"
        data-testid="evaluation-done"
        className="flex items-start gap-4 rounded-2xl border border-emerald-200 bg-gradient-to-br from-emerald-50 to-white p-5 outline-none focus-visible:ring-2 focus-visible:ring-emerald-500 focus-visible:ring-offset-2 sm:p-6"
      >
        <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-emerald-600 text-white">
          <HeartHandshakeIcon className="size-6" aria-hidden="true" />
        </span>
        <div className="grid min-w-0 gap-1">
          <h2 id="evaluation-done-title" className="text-lg font-semibold text-zinc-950">
            {thanked ? "Thank you for your feedback" : CREDIT_MESSAGES.evaluationDone}
          </h2>
          <p className="text-sm text-zinc-700">
            {thanked
              ? "Your evaluation has been recorded. It helps the provider improve this activity."
              : "Each learner evaluates a course once."}
          </p>
        </div>
      </section>
      {children}
    </div>
  );
}
