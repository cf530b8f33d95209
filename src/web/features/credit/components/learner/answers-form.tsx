import {
  EVALUATION_TEXT_ANSWER_MAX,
  type EvaluationAnswersBody,
  type EvaluationItem,
  LIKERT_LABELS,
} from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { SendIcon } from "lucide-react";
import { useId, useMemo } from "react";
import { type FieldErrors, type UseFormRegister, useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { Button } from "../../../../components/ui/button";
import { FieldError } from "../../../../components/ui/field";
import { Label } from "../../../../components/ui/label";
import { Spinner } from "../../../../components/ui/spinner";
import { Textarea } from "../../../../components/ui/textarea";
import { getErrorMessage } from "../../../../lib/api-client";
import { cn } from "../../../../lib/utils";

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

export type SendAnswers = {
  onSend: (body: EvaluationAnswersBody) => void;
  pending: boolean;
  error: Error | null;
};

/**
 * The learner's answers to a form the course administrator wrote (the evaluation, a form step):
 * rating items on a five-point scale and free-text items, checked before they are sent.
 */
export function AnswersForm({
  items,
  label,
  submitLabel,
  failure,
  onSend,
  pending,
  error,
}: {
  items: EvaluationItem[];
  /** The form's name for assistive technology: "Evaluation". */
  label: string;
  submitLabel: string;
  /** Said when the answers could not reach the server and it gave no reason. */
  failure: string;
} & SendAnswers) {
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
      aria-label={label}
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
          {getErrorMessage(error) ?? failure}
        </p>
      ) : null}
      <div className="border-t border-zinc-100 pt-5">
        <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={pending}>
          {pending ? <Spinner /> : <SendIcon aria-hidden="true" />}
          {submitLabel}
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
      data-testid="answer-item"
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
      <FieldError id={`${id}-error`}>{error}</FieldError>
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
    <div className="grid gap-2.5" data-testid="answer-item">
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
        {error ? <FieldError id={`${id}-error`}>{error}</FieldError> : <span />}
        <p id={`${id}-count`} className="shrink-0 text-xs text-zinc-600 tabular-nums">
          {length} / {EVALUATION_TEXT_ANSWER_MAX} characters
        </p>
      </div>
    </div>
  );
}
