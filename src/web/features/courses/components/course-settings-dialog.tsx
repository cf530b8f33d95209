import { type Course, completionPolicySchema, courseSettingsBodySchema } from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "../../../components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../components/ui/dialog";
import { Field, fieldAria } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage } from "../../../lib/api-client";
import { cn } from "../../../lib/utils";
import { useUpdateCourseSettings } from "../api/update-course-settings";
import { COURSE_TOASTS } from "../messages";

const rules = courseSettingsBodySchema.shape;
/** An optional number typed as text: blank is "none" (null), else the contract's rule. */
const optionalNumber = <T extends z.ZodType<unknown, number | null>>(rule: T, scale = 1) =>
  z
    .string()
    .trim()
    .transform((v) => (v === "" ? null : scale === 1 ? Number(v) : Math.round(Number(v) * scale)))
    .pipe(rule);

/** The settings form, validated by the contract's own rules. */
const settingsFormSchema = z.object({
  completionPolicy: completionPolicySchema,
  minWatchPercent: rules.minWatchPercent.unwrap(),
  /** Entered in minutes, stored in seconds. */
  minSeatMinutes: optionalNumber(rules.minSeatSeconds.unwrap(), 60),
});
type SettingsInput = z.input<typeof settingsFormSchema>;
type SettingsOutput = z.output<typeof settingsFormSchema>;

const POLICIES = [
  {
    value: "manual",
    title: "Manual",
    text: "Learners mark a module complete whenever they choose.",
  },
  {
    value: "verified",
    title: "Verified watching",
    text: "'Mark as Complete' unlocks only once enough of the video was really watched.",
  },
] as const;

export function CourseSettingsDialog({
  course,
  open,
  onOpenChange,
}: {
  course: Course;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Completion</DialogTitle>
          <DialogDescription>
            How learners complete modules. The credit the course awards is set under Accreditation.
          </DialogDescription>
        </DialogHeader>
        <SettingsForm course={course} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function SettingsForm({ course, onDone }: { course: Course; onDone: () => void }) {
  const update = useUpdateCourseSettings();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SettingsInput, unknown, SettingsOutput>({
    resolver: zodResolver(settingsFormSchema),
    defaultValues: {
      completionPolicy: course.completionPolicy,
      minWatchPercent: course.minWatchPercent,
      minSeatMinutes: course.minSeatSeconds === null ? "" : String(course.minSeatSeconds / 60),
    },
  });

  const onSubmit = handleSubmit(async ({ minSeatMinutes, ...values }) => {
    try {
      await update.mutateAsync({
        courseId: course.id,
        settings: { ...values, minSeatSeconds: minSeatMinutes },
      });
      toast({ title: COURSE_TOASTS.settingsSaved });
      onDone();
    } catch (error) {
      toast({
        variant: "destructive",
        title: COURSE_TOASTS.settingsSaveFailed,
        description: getErrorMessage(error) ?? COURSE_TOASTS.createFailedDescription,
      });
    }
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Completion settings"
      className="grid grid-cols-1 gap-5"
    >
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium text-zinc-900">Completion</legend>
        {POLICIES.map((policy) => (
          <label
            key={policy.value}
            className={cn(
              "flex cursor-pointer items-start gap-3 rounded-xl border border-zinc-200 p-3 text-sm",
              "has-[:checked]:border-indigo-300 has-[:checked]:bg-indigo-50/60",
              "has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500",
            )}
          >
            <input
              type="radio"
              value={policy.value}
              className="mt-0.5 size-4 accent-indigo-600"
              {...register("completionPolicy")}
            />
            <span className="grid gap-0.5">
              <span className="font-medium text-zinc-900">{policy.title}</span>
              <span className="text-zinc-600">{policy.text}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <Field
          id="settings-min-watch"
          label="Minimum watched (%)"
          hint="Of each module's video, in verified courses."
          error={errors.minWatchPercent?.message}
        >
          <Input
            id="settings-min-watch"
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            step={1}
            {...fieldAria("settings-min-watch", errors.minWatchPercent, { hint: true })}
            {...register("minWatchPercent", { valueAsNumber: true })}
          />
        </Field>
        <Field
          id="settings-min-seat"
          label={
            <>
              Minimum seat time <span className="font-normal text-zinc-500">(optional)</span>
            </>
          }
          hint="Minutes of playing per module."
          error={errors.minSeatMinutes?.message}
        >
          <Input
            id="settings-min-seat"
            type="text"
            inputMode="decimal"
            placeholder="e.g. 10"
            {...fieldAria("settings-min-seat", errors.minSeatMinutes, { hint: true })}
            {...register("minSeatMinutes")}
          />
        </Field>
      </div>
      <DialogFooter className="pt-1">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? <Spinner /> : null}
          Save Settings
        </Button>
      </DialogFooter>
    </form>
  );
}
