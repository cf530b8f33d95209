import {
  type Activity,
  type CreditSettingsBody,
  creditSettingsBodySchema,
  DELIVERY_METHODS,
} from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { PlusIcon, Trash2Icon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useFieldArray, useForm, useWatch } from "react-hook-form";
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
import { Spinner } from "../../../../components/ui/spinner";
import { Textarea } from "../../../../components/ui/textarea";
import { toast } from "../../../../components/ui/use-toast";
import { getErrorMessage } from "../../../../lib/api-client";
import { useSaveCreditSettings } from "../../api/admin-save-credit-settings";
import { blankOrNumber, CREDIT_ADMIN_TOASTS, numberText } from "./admin-labels";
import { FormAlert } from "./form-alert";
import { SignatureField } from "./signature-field";

/** Most accreditors list a handful of fields; the contract's own limit. */
const FIELDS_OF_STUDY_MAX = 20;

const creditFormSchema = z
  .object({
    sponsorName: z.string(),
    sponsorAddress: z.string(),
    deliveryMethod: z.string(),
    fieldsOfStudy: z.array(z.object({ field: z.string(), credits: z.string() })),
    officialName: z.string(),
    officialTitle: z.string(),
  })
  .transform(
    (v): z.input<typeof creditSettingsBodySchema> => ({
      ...v,
      fieldsOfStudy: v.fieldsOfStudy.map((f) => ({
        field: f.field,
        credits: blankOrNumber(f.credits) ?? Number.NaN,
      })),
    }),
  )
  .pipe(creditSettingsBodySchema);
type CreditFormInput = z.input<typeof creditFormSchema>;

function defaultsOf(credit: Activity["credit"]): CreditFormInput {
  return {
    sponsorName: credit.sponsorName,
    sponsorAddress: credit.sponsorAddress,
    deliveryMethod: credit.deliveryMethod,
    fieldsOfStudy: credit.fieldsOfStudy.map((f) => ({
      field: f.field,
      credits: numberText(f.credits),
    })),
    officialName: credit.officialName,
    officialTitle: credit.officialTitle,
  };
}

/** What a credit-ready certificate prints: the sponsor, the fields of study, the signature. */
export function CreditSettingsDialog({
  activity,
  trigger,
}: {
  activity: Activity;
  trigger: ReactNode;
}) {
  // Opened through a Radix trigger, so closing it returns the focus to the button.
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Certificate details</DialogTitle>
          <DialogDescription>
            Printed on every certificate issued from now on; certificates already issued keep what
            they printed.
          </DialogDescription>
        </DialogHeader>
        <CreditForm activity={activity} onDone={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

const optionalLabel = (label: string) => (
  <>
    {label} <span className="font-normal text-zinc-500">(optional)</span>
  </>
);

function CreditForm({ activity, onDone }: { activity: Activity; onDone: () => void }) {
  const save = useSaveCreditSettings();
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<CreditFormInput, unknown, CreditSettingsBody>({
    resolver: zodResolver(creditFormSchema),
    defaultValues: defaultsOf(activity.credit),
  });
  const fields = useFieldArray({ control, name: "fieldsOfStudy" });
  const typedFields = useWatch({ control, name: "fieldsOfStudy" });
  const officialName = useWatch({ control, name: "officialName" });
  const fieldsError = errors.fieldsOfStudy?.message ?? errors.fieldsOfStudy?.root?.message;
  const total = typedFields.reduce((sum, f) => sum + (Number(f.credits) || 0), 0);

  const onSubmit = handleSubmit(async (settings) => {
    setServerError(null);
    try {
      await save.mutateAsync({ courseId: activity.courseId, settings });
      toast({ title: CREDIT_ADMIN_TOASTS.settingsSaved });
      onDone();
    } catch (error) {
      setServerError(getErrorMessage(error) ?? "The credit settings could not be saved.");
    }
  });

  const text = (
    id: string,
    name: "sponsorName" | "officialName" | "officialTitle",
    label: string,
    hint?: string,
  ) => (
    <Field id={id} label={optionalLabel(label)} hint={hint} error={errors[name]?.message}>
      <Input id={id} {...fieldAria(id, errors[name], { hint: !!hint })} {...register(name)} />
    </Field>
  );

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Certificate details"
      className="grid min-w-0 grid-cols-1 gap-6"
    >
      <fieldset className="grid min-w-0 gap-5">
        <legend className="mb-1 text-sm font-semibold text-zinc-900">Sponsor</legend>
        <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
          {text(
            "credit-sponsor",
            "sponsorName",
            "Sponsor name",
            "Provider numbers are entered once per accrediting body, with the credit types.",
          )}
        </div>
        <Field
          id="credit-address"
          label={optionalLabel("Sponsor address")}
          error={errors.sponsorAddress?.message}
        >
          <Textarea
            id="credit-address"
            rows={2}
            {...fieldAria("credit-address", errors.sponsorAddress)}
            {...register("sponsorAddress")}
          />
        </Field>
        <Field
          id="credit-delivery"
          label={optionalLabel("Delivery method")}
          hint="Choose a common one or type your accreditor's wording."
          error={errors.deliveryMethod?.message}
        >
          <Input
            id="credit-delivery"
            list="credit-delivery-methods"
            autoComplete="off"
            {...fieldAria("credit-delivery", errors.deliveryMethod, { hint: true })}
            {...register("deliveryMethod")}
          />
        </Field>
        <datalist id="credit-delivery-methods">
          {DELIVERY_METHODS.map((method) => (
            <option key={method} value={method} />
          ))}
        </datalist>
      </fieldset>

      <fieldset
        className="grid min-w-0 gap-3"
        aria-describedby={fieldsError ? "fields-of-study-error" : "fields-of-study-hint"}
      >
        <legend className="mb-1 text-sm font-semibold text-zinc-900">Fields of study</legend>
        <p id="fields-of-study-hint" className="-mt-1 text-xs text-zinc-600">
          The credits a certificate prints in each field (NASBA: e.g. Taxes 2, Accounting 1), adding
          up to the amount of the credit type they count.
        </p>
        {fields.fields.length === 0 ? (
          <p className="text-sm text-zinc-600">No fields of study yet.</p>
        ) : (
          <ul className="grid gap-3">
            {fields.fields.map((row, index) => {
              const prefix = `field-of-study-${index}`;
              const error = errors.fieldsOfStudy?.[index];
              return (
                <li
                  key={row.id}
                  data-testid="field-of-study-row"
                  className="grid grid-cols-[minmax(0,1fr)_5.5rem_auto] items-start gap-2 sm:grid-cols-[minmax(0,1fr)_7rem_auto]"
                >
                  <Field id={`${prefix}-field`} label="Field" error={error?.field?.message}>
                    <Input
                      id={`${prefix}-field`}
                      {...fieldAria(`${prefix}-field`, error?.field)}
                      {...register(`fieldsOfStudy.${index}.field`)}
                    />
                  </Field>
                  <Field id={`${prefix}-credits`} label="Credits" error={error?.credits?.message}>
                    <Input
                      id={`${prefix}-credits`}
                      inputMode="decimal"
                      {...fieldAria(`${prefix}-credits`, error?.credits)}
                      {...register(`fieldsOfStudy.${index}.credits`)}
                    />
                  </Field>
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    className="mt-6 text-zinc-600"
                    aria-label={`Remove field of study ${index + 1}${typedFields[index]?.field ? ` (${typedFields[index]?.field})` : ""}`}
                    onClick={() => fields.remove(index)}
                  >
                    <Trash2Icon aria-hidden="true" />
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
        <FieldError id="fields-of-study-error">{fieldsError}</FieldError>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="w-fit"
            disabled={fields.fields.length >= FIELDS_OF_STUDY_MAX}
            onClick={() => fields.append({ field: "", credits: "" }, { shouldFocus: true })}
          >
            <PlusIcon aria-hidden="true" />
            Add field of study
          </Button>
          {fields.fields.length ? (
            <p className="text-sm text-zinc-700 tabular-nums" data-testid="fields-total">
              Total: {Math.round(total * 100) / 100} credits
            </p>
          ) : null}
        </div>
      </fieldset>

      <fieldset className="grid min-w-0 gap-5">
        <legend className="mb-1 text-sm font-semibold text-zinc-900">Responsible official</legend>
        <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
          {text("credit-official-name", "officialName", "Name")}
          {text("credit-official-title", "officialTitle", "Title")}
        </div>
        <SignatureField
          courseId={activity.courseId}
          signatureId={activity.credit.signatureId}
          officialName={officialName}
        />
      </fieldset>

      <FormAlert message={serverError} />
      <DialogFooter className="pt-1">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? <Spinner /> : null}
          Save settings
        </Button>
      </DialogFooter>
    </form>
  );
}
