import {
  type Course,
  MAX_OPTIONS,
  MIN_OPTIONS,
  QUESTION_KIND_LABELS,
  QUESTION_KINDS,
  type Question,
  type QuestionInput,
  type QuestionPool,
  questionBodySchema,
  questionKindSchema,
  questionPoolSchema,
} from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { PlusIcon, Trash2Icon } from "lucide-react";
import { useFieldArray, useForm } from "react-hook-form";
import { z } from "zod";
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
import { Field, FieldError, fieldAria } from "../../../../components/ui/field";
import { Input, inputClassName } from "../../../../components/ui/input";
import { Spinner } from "../../../../components/ui/spinner";
import { Textarea } from "../../../../components/ui/textarea";
import { toast } from "../../../../components/ui/use-toast";
import { getErrorMessage } from "../../../../lib/api-client";
import { useSingleSubmit } from "../../../../lib/use-single-submit";
import { cn } from "../../../../lib/utils";
import { ASSESSMENT_TOASTS, POOL_LABELS } from "../../admin-labels";
import { useSaveQuestion } from "../../api/save-question";

/** The form's text fields, then the contract's own question rules (the server runs the same). */
const questionFormSchema = z
  .object({
    pool: questionPoolSchema,
    moduleId: z.string(),
    kind: questionKindSchema,
    text: z.string(),
    options: z.array(z.object({ text: z.string(), correct: z.boolean(), feedback: z.string() })),
    explanation: z.string(),
  })
  .transform((v): QuestionInput => ({ ...v, moduleId: v.moduleId || null }))
  .pipe(questionBodySchema);
type QuestionFormInput = z.input<typeof questionFormSchema>;
type QuestionFormOutput = z.output<typeof questionFormSchema>;

const TRUE_FALSE = [
  { text: "True", correct: true, feedback: "" },
  { text: "False", correct: false, feedback: "" },
];
const blankOption = () => ({ text: "", correct: false, feedback: "" });

function defaultsOf(question: Question | null, pool: QuestionPool): QuestionFormInput {
  if (!question) {
    return {
      pool,
      moduleId: "",
      kind: "single",
      text: "",
      options: [blankOption(), blankOption(), blankOption()],
      explanation: "",
    };
  }
  return {
    pool: question.pool,
    moduleId: question.moduleId ?? "",
    kind: question.kind,
    text: question.text,
    options: question.options.map((o) => ({
      text: o.text,
      correct: o.correct,
      feedback: o.feedback ?? "",
    })),
    explanation: question.explanation ?? "",
  };
}

/** Adds a question to the bank, or edits one; attempts already taken keep their own copy. */
export function QuestionDialog({
  course,
  question,
  pool,
  open,
  onOpenChange,
}: {
  course: Course;
  question: Question | null;
  pool: QuestionPool;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{question ? "Edit question" : "Add question"}</DialogTitle>
          <DialogDescription>
            Mark the right answers; feedback on an option is shown to a learner who chose it in a
            review, or once the exam reveals its answers.
          </DialogDescription>
        </DialogHeader>
        <QuestionForm
          // A fresh form for each question opened.
          key={question?.id ?? `new-${pool}`}
          course={course}
          question={question}
          pool={pool}
          onDone={() => onOpenChange(false)}
        />
      </DialogContent>
    </Dialog>
  );
}

function QuestionForm({
  course,
  question,
  pool,
  onDone,
}: {
  course: Course;
  question: Question | null;
  pool: QuestionPool;
  onDone: () => void;
}) {
  const save = useSaveQuestion();
  const single = useSingleSubmit();
  const {
    register,
    control,
    handleSubmit,
    watch,
    setValue,
    getValues,
    trigger,
    formState: { errors },
  } = useForm<QuestionFormInput, unknown, QuestionFormOutput>({
    resolver: zodResolver(questionFormSchema),
    defaultValues: defaultsOf(question, pool),
  });
  const options = useFieldArray({ control, name: "options" });
  const kind = watch("kind");
  const chosenPool = watch("pool");
  const optionsError = errors.options?.message ?? errors.options?.root?.message;

  const onSubmit = handleSubmit(async (body) => {
    try {
      const saved = await single((idempotencyKey) =>
        save.mutateAsync({
          courseId: course.id,
          questionId: question?.id,
          question: body,
          idempotencyKey,
        }),
      );
      if (!saved) return;
      toast({
        title: question ? ASSESSMENT_TOASTS.questionSaved : ASSESSMENT_TOASTS.questionAdded,
      });
      onDone();
    } catch (error) {
      toast({
        variant: "destructive",
        title: ASSESSMENT_TOASTS.error,
        description: getErrorMessage(error) ?? "The question could not be saved.",
      });
    }
  });

  // One right answer for single-choice and true/false: ticking one clears the others.
  function onCorrectChange(index: number, checked: boolean) {
    if (checked && getValues("kind") !== "multiple") {
      getValues("options").forEach((_o, i) => {
        if (i !== index) setValue(`options.${i}.correct`, false);
      });
    }
    // The rule is about the options together: check it again once it has been shown.
    if (optionsError) void trigger("options");
  }

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={question ? "Edit question" : "Add question"}
      className="grid grid-cols-1 gap-5"
    >
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <Field id="question-pool" label="Pool">
          <select
            id="question-pool"
            className={inputClassName}
            {...register("pool", {
              // Final-exam questions belong to no module.
              onChange: () => setValue("moduleId", ""),
            })}
          >
            {(["final", "review"] as const).map((p) => (
              <option key={p} value={p}>
                {POOL_LABELS[p]}
              </option>
            ))}
          </select>
        </Field>
        <Field id="question-kind" label="Kind">
          <select
            id="question-kind"
            className={inputClassName}
            {...register("kind", {
              onChange: (event: { target: { value: string } }) => {
                if (event.target.value === "true_false") options.replace(TRUE_FALSE);
              },
            })}
          >
            {QUESTION_KINDS.map((k) => (
              <option key={k} value={k}>
                {QUESTION_KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </Field>
        {chosenPool === "review" ? (
          <Field
            id="question-module"
            label="Module"
            className="sm:col-span-2"
            error={errors.moduleId?.message}
          >
            <select
              id="question-module"
              className={inputClassName}
              {...fieldAria("question-module", errors.moduleId)}
              {...register("moduleId")}
            >
              <option value="">Choose the module…</option>
              {course.modules.map((m, i) => (
                <option key={m.id} value={m.id}>
                  {i + 1}. {m.title}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
      </div>
      <Field id="question-text" label="Question" error={errors.text?.message}>
        <Textarea
          id="question-text"
          rows={3}
          {...fieldAria("question-text", errors.text)}
          {...register("text")}
        />
      </Field>
      <fieldset
        className="grid gap-3"
        aria-describedby={optionsError ? "options-error" : undefined}
      >
        <legend className="mb-1 text-sm font-medium text-zinc-900">
          Options{" "}
          <span className="font-normal text-zinc-500">
            ({kind === "multiple" ? "tick every right answer" : "tick the right answer"})
          </span>
        </legend>
        {options.fields.map((field, index) => {
          const letter = String.fromCharCode(65 + index);
          const optionErrors = errors.options?.[index];
          return (
            <div
              key={field.id}
              data-testid="option-row"
              className="grid grid-cols-[auto_minmax(0,1fr)_auto] items-start gap-x-3 gap-y-2 rounded-xl border border-zinc-200 p-3"
            >
              <label className="mt-2 flex items-center gap-2 text-sm font-medium text-zinc-700">
                <input
                  type="checkbox"
                  className="size-4 accent-emerald-600"
                  aria-label={`Option ${letter} is correct`}
                  {...register(`options.${index}.correct`, {
                    onChange: (event: { target: { checked: boolean } }) =>
                      onCorrectChange(index, event.target.checked),
                  })}
                />
                <span aria-hidden="true">{letter}</span>
              </label>
              <div className="grid gap-2">
                <Input
                  aria-label={`Option ${letter}`}
                  readOnly={kind === "true_false"}
                  {...fieldAria(`option-${index}-text`, optionErrors?.text)}
                  {...register(`options.${index}.text`)}
                />
                <FieldError id={`option-${index}-text-error`}>
                  {optionErrors?.text?.message}
                </FieldError>
                <Input
                  aria-label={`Feedback for option ${letter} (optional)`}
                  placeholder="Feedback (optional)"
                  className="h-9 text-sm"
                  {...register(`options.${index}.feedback`)}
                />
              </div>
              <Button
                type="button"
                variant="ghost"
                size="icon-sm"
                className={cn("mt-1 text-zinc-600", kind === "true_false" && "invisible")}
                aria-label={`Remove option ${letter}`}
                disabled={options.fields.length <= MIN_OPTIONS || kind === "true_false"}
                onClick={() => options.remove(index)}
              >
                <Trash2Icon aria-hidden="true" />
              </Button>
            </div>
          );
        })}
        <FieldError id="options-error">{optionsError}</FieldError>
        {kind === "true_false" ? null : (
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="w-fit"
            disabled={options.fields.length >= MAX_OPTIONS}
            onClick={() => options.append(blankOption())}
          >
            <PlusIcon aria-hidden="true" />
            Add option
          </Button>
        )}
      </fieldset>
      <Field
        id="question-explanation"
        label={
          <>
            Explanation <span className="font-normal text-zinc-500">(optional)</span>
          </>
        }
        hint="Why the right answer is right; shown when answers are revealed."
        error={errors.explanation?.message}
      >
        <Textarea
          id="question-explanation"
          rows={2}
          {...fieldAria("question-explanation", errors.explanation, { hint: true })}
          {...register("explanation")}
        />
      </Field>
      <DialogFooter className="pt-1">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? <Spinner /> : null}
          {question ? "Save question" : "Add question"}
        </Button>
      </DialogFooter>
    </form>
  );
}
