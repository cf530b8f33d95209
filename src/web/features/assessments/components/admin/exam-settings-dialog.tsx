import { type ExamSettings, examSettingsBodySchema, REVEAL_ANSWERS } from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
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
import { Field, fieldAria } from "../../../../components/ui/field";
import { Input } from "../../../../components/ui/input";
import { Spinner } from "../../../../components/ui/spinner";
import { toast } from "../../../../components/ui/use-toast";
import { getErrorMessage } from "../../../../lib/api-client";
import { cn } from "../../../../lib/utils";
import { ASSESSMENT_TOASTS, REVEAL_LABELS } from "../../admin-labels";
import { useUpdateExamSettings } from "../../api/update-exam-settings";

const rules = examSettingsBodySchema.shape;
/** A number typed as text: blank is "none" (null), else the contract's rule. */
const optionalNumber = <T extends z.ZodType<unknown, number | null>>(rule: T) =>
  z
    .string()
    .trim()
    .transform((v) => (v === "" ? null : Number(v)))
    .pipe(rule);

const settingsFormSchema = z.object({
  enabled: z.boolean(),
  questionCount: rules.questionCount,
  passMark: rules.passMark,
  maxAttempts: optionalNumber(rules.maxAttempts),
  timeLimitMinutes: optionalNumber(rules.timeLimitMinutes),
  revealAnswers: rules.revealAnswers,
  reviewRequired: z.boolean(),
});
type SettingsInput = z.input<typeof settingsFormSchema>;
type SettingsOutput = z.output<typeof settingsFormSchema>;

const REVEAL_HINTS = {
  never: "Learners see their score only.",
  after_pass: "Learners see every question's answer and explanation once they pass.",
  always: "Learners see the answers after each submitted attempt.",
} as const;

export function ExamSettingsDialog({
  courseId,
  settings,
  open,
  onOpenChange,
}: {
  courseId: string;
  settings: ExamSettings;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Exam settings</DialogTitle>
          <DialogDescription>
            Each attempt draws its questions at random from the final pool; learners are told the
            pass mark before they start.
          </DialogDescription>
        </DialogHeader>
        <SettingsForm courseId={courseId} settings={settings} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function SettingsForm({
  courseId,
  settings,
  onDone,
}: {
  courseId: string;
  settings: ExamSettings;
  onDone: () => void;
}) {
  const update = useUpdateExamSettings();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SettingsInput, unknown, SettingsOutput>({
    resolver: zodResolver(settingsFormSchema),
    defaultValues: {
      enabled: settings.enabled,
      questionCount: settings.questionCount,
      passMark: settings.passMark,
      maxAttempts: settings.maxAttempts === null ? "" : String(settings.maxAttempts),
      timeLimitMinutes: settings.timeLimitMinutes === null ? "" : String(settings.timeLimitMinutes),
      revealAnswers: settings.revealAnswers,
      reviewRequired: settings.reviewRequired,
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await update.mutateAsync({ courseId, settings: values });
      toast({ title: ASSESSMENT_TOASTS.settingsSaved });
      onDone();
    } catch (error) {
      toast({
        variant: "destructive",
        title: ASSESSMENT_TOASTS.error,
        description: getErrorMessage(error) ?? "The exam settings could not be saved.",
      });
    }
  });

  const number = (id: string, name: "questionCount" | "passMark", label: string, hint: string) => (
    <Field id={id} label={label} hint={hint} error={errors[name]?.message}>
      <Input
        id={id}
        type="number"
        inputMode="numeric"
        step={1}
        {...fieldAria(id, errors[name], { hint: true })}
        {...register(name, { valueAsNumber: true })}
      />
    </Field>
  );
  const optional = (
    id: string,
    name: "maxAttempts" | "timeLimitMinutes",
    label: string,
    hint: string,
  ) => (
    <Field
      id={id}
      label={
        <>
          {label} <span className="font-normal text-zinc-500">(optional)</span>
        </>
      }
      hint={hint}
      error={errors[name]?.message}
    >
      <Input
        id={id}
        type="text"
        inputMode="numeric"
        placeholder="None"
        {...fieldAria(id, errors[name], { hint: true })}
        {...register(name)}
      />
    </Field>
  );

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Exam settings"
      className="grid grid-cols-1 gap-5"
    >
      <label className="flex cursor-pointer items-start gap-3 rounded-xl border border-zinc-200 p-3 text-sm has-[:checked]:border-indigo-300 has-[:checked]:bg-indigo-50/60 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500">
        <input
          type="checkbox"
          className="mt-0.5 size-4 accent-indigo-600"
          {...register("enabled")}
        />
        <span className="grid gap-0.5">
          <span className="font-medium text-zinc-900">Require a final exam</span>
          <span className="text-zinc-600">
            Learners complete the course, and earn its certificate, only when they pass.
          </span>
        </span>
      </label>
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        {number(
          "exam-question-count",
          "questionCount",
          "Questions per attempt",
          `Drawn from the final pool of ${settings.finalPoolSize}.`,
        )}
        {number("exam-pass-mark", "passMark", "Pass mark (%)", "Shown to learners in advance.")}
        {optional("exam-max-attempts", "maxAttempts", "Attempts allowed", "Blank: unlimited.")}
        {optional(
          "exam-time-limit",
          "timeLimitMinutes",
          "Time limit (minutes)",
          "Blank: no time limit.",
        )}
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium text-zinc-900">Show the right answers</legend>
        {REVEAL_ANSWERS.map((value) => (
          <label
            key={value}
            className={cn(
              "flex cursor-pointer items-start gap-3 rounded-xl border border-zinc-200 p-3 text-sm",
              "has-[:checked]:border-indigo-300 has-[:checked]:bg-indigo-50/60",
              "has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500",
            )}
          >
            <input
              type="radio"
              value={value}
              className="mt-0.5 size-4 accent-indigo-600"
              {...register("revealAnswers")}
            />
            <span className="grid gap-0.5">
              <span className="font-medium text-zinc-900">{REVEAL_LABELS[value]}</span>
              <span className="text-zinc-600">{REVEAL_HINTS[value]}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <label className="flex cursor-pointer items-start gap-3 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 size-4 accent-indigo-600"
          {...register("reviewRequired")}
        />
        <span className="grid gap-0.5">
          <span className="font-medium text-zinc-900">Require review questions</span>
          <span className="text-zinc-600">
            A module with review questions is complete only once they are answered.
          </span>
        </span>
      </label>
      <DialogFooter className="pt-1">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? <Spinner /> : null}
          Save settings
        </Button>
      </DialogFooter>
    </form>
  );
}
