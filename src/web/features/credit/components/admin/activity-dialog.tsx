import {
  type Activity,
  type ActivityInput,
  activityBodySchema,
  DEFAULT_RETENTION_YEARS,
  FACULTY_MAX,
  OBJECTIVES_MAX,
} from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { PlusIcon, Trash2Icon } from "lucide-react";
import { type ReactNode, useRef, useState } from "react";
import { type UseFormRegisterReturn, useFieldArray, useForm } from "react-hook-form";
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
  DialogTrigger,
} from "../../../../components/ui/dialog";
import { Field, FieldError, fieldAria } from "../../../../components/ui/field";
import { Input } from "../../../../components/ui/input";
import { Label } from "../../../../components/ui/label";
import { Spinner } from "../../../../components/ui/spinner";
import { Textarea } from "../../../../components/ui/textarea";
import { toast } from "../../../../components/ui/use-toast";
import { getErrorMessage } from "../../../../lib/api-client";
import { useSaveActivity } from "../../api/admin-save-activity";
import { blankOrNumber, CREDIT_ADMIN_TOASTS, numberText } from "./admin-labels";
import { FormAlert } from "./form-alert";

/** The form's text fields, then the contract's own activity rules (the server runs the same). */
const activityFormSchema = z
  .object({
    objectives: z.array(z.object({ text: z.string() })),
    faculty: z.array(z.object({ name: z.string(), role: z.string(), disclosure: z.string() })),
    disclosureStatement: z.string(),
    releaseDate: z.string(),
    reviewDate: z.string(),
    expirationDate: z.string(),
    enrollmentValidDays: z.string(),
    acknowledgementRequired: z.boolean(),
    evaluationRequired: z.boolean(),
    attestationRequired: z.boolean(),
    attestationText: z.string(),
    retentionYears: z.string(),
  })
  .transform(
    (v): ActivityInput => ({
      ...v,
      objectives: v.objectives.map((o) => o.text),
      releaseDate: v.releaseDate || null,
      reviewDate: v.reviewDate || null,
      expirationDate: v.expirationDate || null,
      enrollmentValidDays: blankOrNumber(v.enrollmentValidDays),
      // Records are always kept for some years: a blank is no number, not "forever".
      retentionYears: blankOrNumber(v.retentionYears) ?? Number.NaN,
    }),
  )
  .pipe(activityBodySchema);
type ActivityFormInput = z.input<typeof activityFormSchema>;
type ActivityFormOutput = z.output<typeof activityFormSchema>;

function defaultsOf(activity: Activity): ActivityFormInput {
  return {
    objectives: activity.objectives.map((text) => ({ text })),
    faculty: activity.faculty.map((f) => ({ ...f })),
    disclosureStatement: activity.disclosureStatement,
    releaseDate: activity.releaseDate ?? "",
    reviewDate: activity.reviewDate ?? "",
    expirationDate: activity.expirationDate ?? "",
    enrollmentValidDays: numberText(activity.enrollmentValidDays),
    acknowledgementRequired: activity.acknowledgementRequired,
    evaluationRequired: activity.evaluationRequired,
    attestationRequired: activity.attestationRequired,
    attestationText: activity.attestationText,
    retentionYears: String(activity.retentionYears ?? DEFAULT_RETENTION_YEARS),
  };
}

/** Edits "About this activity" and the rules of the credit claim, saved together. */
export function ActivityDialog({ activity, trigger }: { activity: Activity; trigger: ReactNode }) {
  // Opened through a Radix trigger, so closing it returns the focus to the button.
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Edit activity</DialogTitle>
          <DialogDescription>
            What learners read on “About this activity” before they start, and the steps they
            complete to claim credit.
          </DialogDescription>
        </DialogHeader>
        <ActivityForm activity={activity} onDone={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

const optionalLabel = (label: string) => (
  <>
    {label} <span className="font-normal text-zinc-500">(optional)</span>
  </>
);

function ActivityForm({ activity, onDone }: { activity: Activity; onDone: () => void }) {
  const save = useSaveActivity();
  const formRef = useRef<HTMLFormElement>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<ActivityFormInput, unknown, ActivityFormOutput>({
    resolver: zodResolver(activityFormSchema),
    defaultValues: defaultsOf(activity),
    // Some of the contract's messages name a list item rather than an input: the first
    // invalid control on screen takes the focus instead (see onInvalid).
    shouldFocusError: false,
  });
  const attestationRequired = watch("attestationRequired");
  const objectives = useFieldArray({ control, name: "objectives" });
  const faculty = useFieldArray({ control, name: "faculty" });
  const objectivesError = errors.objectives?.message ?? errors.objectives?.root?.message;
  const facultyError = errors.faculty?.message ?? errors.faculty?.root?.message;

  const onSubmit = handleSubmit(
    async (body) => {
      setServerError(null);
      try {
        await save.mutateAsync({ courseId: activity.courseId, activity: body });
        toast({ title: CREDIT_ADMIN_TOASTS.activitySaved });
        onDone();
      } catch (error) {
        setServerError(getErrorMessage(error) ?? "The activity could not be saved.");
      }
    },
    () =>
      requestAnimationFrame(() =>
        formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
      ),
  );

  const textField = (
    id: string,
    name: "disclosureStatement" | "attestationText" | "enrollmentValidDays" | "retentionYears",
    label: ReactNode,
    hint: ReactNode,
    control: (props: ReturnType<typeof fieldAria> & UseFormRegisterReturn) => ReactNode,
  ) => (
    <Field id={id} label={label} hint={hint} error={errors[name]?.message}>
      {control({ ...fieldAria(id, errors[name], { hint: !!hint }), ...register(name) })}
    </Field>
  );

  const dateField = (
    id: string,
    name: "releaseDate" | "reviewDate" | "expirationDate",
    label: string,
    hint: string,
  ) => (
    <Field id={id} label={optionalLabel(label)} hint={hint} error={errors[name]?.message}>
      <Input
        id={id}
        type="date"
        {...fieldAria(id, errors[name], { hint: true })}
        {...register(name)}
      />
    </Field>
  );

  const step = (
    name: "acknowledgementRequired" | "evaluationRequired" | "attestationRequired",
    label: string,
    description: string,
  ) => (
    <label className="flex cursor-pointer items-start gap-3 rounded-xl border border-zinc-200 p-3 text-sm has-[:checked]:border-indigo-300 has-[:checked]:bg-indigo-50/60 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500">
      <input type="checkbox" className="mt-0.5 size-4 accent-indigo-600" {...register(name)} />
      <span className="grid gap-0.5">
        <span className="font-medium text-zinc-900">{label}</span>
        <span className="text-zinc-600">{description}</span>
      </span>
    </label>
  );

  return (
    <form
      ref={formRef}
      onSubmit={onSubmit}
      noValidate
      aria-label="Edit activity"
      className="grid min-w-0 grid-cols-1 gap-6"
    >
      <fieldset
        className="grid min-w-0 gap-3"
        aria-describedby={objectivesError ? "objectives-error" : undefined}
      >
        <legend className="mb-1 text-sm font-semibold text-zinc-900">Learning objectives</legend>
        {objectives.fields.length === 0 ? (
          <p className="text-sm text-zinc-600">No objectives yet.</p>
        ) : (
          <ol className="grid gap-2">
            {objectives.fields.map((field, index) => {
              const id = `objective-${index}`;
              // The contract names the objective itself ("objectives.1"), not the row's input.
              const message = errors.objectives?.[index]?.message;
              return (
                <li
                  key={field.id}
                  data-testid="objective-row"
                  className="grid grid-cols-[1.75rem_minmax(0,1fr)_auto] items-start gap-2"
                >
                  <Label htmlFor={id} className="mt-3 text-right text-zinc-600 tabular-nums">
                    <span className="sr-only">Objective </span>
                    {index + 1}.
                  </Label>
                  <div className="grid gap-1.5">
                    <Input
                      id={id}
                      aria-invalid={message ? true : undefined}
                      aria-describedby={message ? `${id}-error` : undefined}
                      placeholder="Learners will be able to…"
                      {...register(`objectives.${index}.text`)}
                    />
                    {message ? (
                      <p
                        id={`${id}-error`}
                        role="alert"
                        className="text-xs font-medium text-red-700"
                      >
                        {message}
                      </p>
                    ) : null}
                  </div>
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    className="text-zinc-600"
                    aria-label={`Remove objective ${index + 1}`}
                    onClick={() => objectives.remove(index)}
                  >
                    <Trash2Icon aria-hidden="true" />
                  </Button>
                </li>
              );
            })}
          </ol>
        )}
        <FieldError id="objectives-error">{objectivesError}</FieldError>
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="w-fit"
          disabled={objectives.fields.length >= OBJECTIVES_MAX}
          onClick={() => objectives.append({ text: "" }, { shouldFocus: true })}
        >
          <PlusIcon aria-hidden="true" />
          Add objective
        </Button>
      </fieldset>

      <fieldset
        className="grid min-w-0 gap-3"
        aria-describedby={facultyError ? "faculty-error" : undefined}
      >
        <legend className="mb-1 text-sm font-semibold text-zinc-900">Faculty and planners</legend>
        {faculty.fields.length === 0 ? (
          <p className="text-sm text-zinc-600">No one listed yet.</p>
        ) : (
          <ul className="grid gap-3">
            {faculty.fields.map((field, index) => {
              const prefix = `faculty-${index}`;
              const error = errors.faculty?.[index];
              return (
                <li
                  key={field.id}
                  data-testid="faculty-row"
                  className="grid min-w-0 gap-3 rounded-xl border border-zinc-200 p-3 sm:p-4"
                >
                  <div className="flex items-center justify-between gap-2">
                    <p className="text-sm font-medium text-zinc-900">Person {index + 1}</p>
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      className="text-zinc-600"
                      aria-label={`Remove person ${index + 1}`}
                      onClick={() => faculty.remove(index)}
                    >
                      <Trash2Icon aria-hidden="true" />
                      Remove
                    </Button>
                  </div>
                  <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
                    <Field id={`${prefix}-name`} label="Name" error={error?.name?.message}>
                      <Input
                        id={`${prefix}-name`}
                        autoComplete="off"
                        {...fieldAria(`${prefix}-name`, error?.name)}
                        {...register(`faculty.${index}.name`)}
                      />
                    </Field>
                    <Field
                      id={`${prefix}-role`}
                      label={optionalLabel("Role")}
                      error={error?.role?.message}
                    >
                      <Input
                        id={`${prefix}-role`}
                        placeholder="Course director, author, reviewer…"
                        {...fieldAria(`${prefix}-role`, error?.role)}
                        {...register(`faculty.${index}.role`)}
                      />
                    </Field>
                  </div>
                  <Field
                    id={`${prefix}-disclosure`}
                    label={optionalLabel("Disclosure")}
                    error={error?.disclosure?.message}
                  >
                    <Textarea
                      id={`${prefix}-disclosure`}
                      rows={2}
                      placeholder="Nothing to disclose."
                      {...fieldAria(`${prefix}-disclosure`, error?.disclosure)}
                      {...register(`faculty.${index}.disclosure`)}
                    />
                  </Field>
                </li>
              );
            })}
          </ul>
        )}
        <FieldError id="faculty-error">{facultyError}</FieldError>
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="w-fit"
          disabled={faculty.fields.length >= FACULTY_MAX}
          onClick={() =>
            faculty.append({ name: "", role: "", disclosure: "" }, { shouldFocus: true })
          }
        >
          <PlusIcon aria-hidden="true" />
          Add person
        </Button>
      </fieldset>

      <fieldset className="grid min-w-0 gap-5">
        <legend className="mb-1 text-sm font-semibold text-zinc-900">Statements</legend>
        {textField(
          "activity-disclosure",
          "disclosureStatement",
          "Disclosure statement",
          "Name, company, nature of the relationship; state that all relevant financial relationships have been mitigated.",
          (props) => (
            <Textarea id="activity-disclosure" rows={4} {...props} />
          ),
        )}
      </fieldset>

      <fieldset className="grid min-w-0 gap-5">
        <legend className="mb-1 text-sm font-semibold text-zinc-900">Dates</legend>
        <div className="grid grid-cols-1 gap-5 sm:grid-cols-3">
          {dateField("activity-release", "releaseDate", "Release date", "First offered.")}
          {dateField("activity-review", "reviewDate", "Review date", "Content last reviewed.")}
          {dateField(
            "activity-expiration",
            "expirationDate",
            "Expiration date",
            "No one starts or earns credit after it.",
          )}
        </div>
        <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
          {textField(
            "activity-valid-days",
            "enrollmentValidDays",
            optionalLabel("Enrollment validity (days)"),
            "Blank: no limit. NASBA self-study: at most 365.",
            (props) => (
              <Input
                id="activity-valid-days"
                inputMode="numeric"
                placeholder="No limit"
                {...props}
              />
            ),
          )}
          {textField(
            "activity-retention",
            "retentionYears",
            "Keep records for (years)",
            `How long completion records are kept; ${DEFAULT_RETENTION_YEARS} by default.`,
            (props) => (
              <Input id="activity-retention" inputMode="numeric" {...props} />
            ),
          )}
        </div>
      </fieldset>

      <fieldset className="grid min-w-0 gap-3">
        <legend className="mb-1 text-sm font-semibold text-zinc-900">Steps to credit</legend>
        {step(
          "acknowledgementRequired",
          "Require acknowledgement",
          "Learners read and acknowledge this page before the first module opens.",
        )}
        {step(
          "evaluationRequired",
          "Require the evaluation",
          "Learners answer the course evaluation before attesting and receiving the certificate.",
        )}
        {step(
          "attestationRequired",
          "Require attestation",
          "Learners attest to the statement below, and claim their credit, before the certificate.",
        )}
        {textField(
          "activity-attestation",
          "attestationText",
          // Never marked optional: a course that attests, or reports its credit to a
          // regulator (which asks for the attestation), needs it.
          "Attestation statement",
          "Learners confirm these exact words. Required when the course asks for attestation.",
          (props) => (
            <Textarea
              id="activity-attestation"
              rows={3}
              aria-required={attestationRequired}
              placeholder="I attest that I completed this activity and claim only the credit commensurate with the extent of my participation."
              {...props}
            />
          ),
        )}
      </fieldset>

      <FormAlert message={serverError} />
      <DialogFooter className="pt-1">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? <Spinner /> : null}
          Save activity
        </Button>
      </DialogFooter>
    </form>
  );
}
