import {
  type CourseCreditBody,
  CREDIT_TYPES_MAX,
  type CreditType,
  courseCreditBodyOf,
  courseCreditBodySchema,
  creditAmountText,
  isHundredths,
} from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { PlusIcon, Trash2Icon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { type FieldErrors, useFieldArray, useForm, useWatch } from "react-hook-form";
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
import { Field, fieldAria } from "../../../../components/ui/field";
import { Input, inputClassName } from "../../../../components/ui/input";
import { Spinner } from "../../../../components/ui/spinner";
import { Textarea } from "../../../../components/ui/textarea";
import { toast } from "../../../../components/ui/use-toast";
import { getErrorMessage } from "../../../../lib/api-client";
import { useSaveCourseCredit } from "../../api/admin-save-course-credit";
import { blankOrNumber, CREDIT_ADMIN_TOASTS, numberText } from "./admin-labels";
import { FormAlert } from "./form-alert";

/** The form as typed (amounts as text), then the contract's rules, which the server runs too. */
const creditFormSchema = z
  .object({
    bodies: z.array(z.object({ name: z.string(), providerNumber: z.string() })),
    types: z.array(
      z.object({
        id: z.string().optional(),
        name: z.string(),
        amount: z.string(),
        accreditingBody: z.string(),
        accreditationStatement: z.string(),
        designationStatement: z.string(),
        claimStep: z.string(),
        licenceRequired: z.boolean(),
      }),
    ),
  })
  .transform(
    (v): z.input<typeof courseCreditBodySchema> => ({
      bodies: v.bodies,
      types: v.types.map(({ amount, claimStep, ...t }) => ({
        ...t,
        amount: blankOrNumber(amount) ?? Number.NaN,
        claimStep: blankOrNumber(claimStep),
      })),
    }),
  )
  .pipe(courseCreditBodySchema);
type CreditFormInput = z.input<typeof creditFormSchema>;

function defaultsOf(types: CreditType[]): CreditFormInput {
  const body = courseCreditBodyOf(types);
  return {
    bodies: body.bodies,
    types: body.types.map((t) => ({
      ...t,
      amount: numberText(t.amount),
      claimStep: numberText(t.claimStep),
    })),
  };
}

const BLANK_TYPE: CreditFormInput["types"][number] = {
  name: "",
  amount: "",
  accreditingBody: "",
  accreditationStatement: "",
  designationStatement: "",
  claimStep: "",
  licenceRequired: false,
};

/**
 * The one place a course's credit is set: the accrediting bodies, each with its provider
 * number entered once, and the credit types the course offers, each with its amount, body,
 * statements, claim step and licence rule.
 */
export function CreditTypesDialog({
  courseId,
  types,
  trigger,
}: {
  courseId: string;
  types: CreditType[];
  trigger: ReactNode;
}) {
  // Opened through a Radix trigger, so closing it returns the focus to the button.
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Credit types</DialogTitle>
          <DialogDescription>
            Each type is claimed and printed on its own, never added to another. Certificates
            already issued keep what they printed.
          </DialogDescription>
        </DialogHeader>
        <CreditTypesForm courseId={courseId} types={types} onDone={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

const optionalLabel = (label: string) => (
  <>
    {label} <span className="font-normal text-zinc-500">(optional)</span>
  </>
);

/** The message of a list's own rule (rather than one of its rows'), if any. */
const listError = (errors: FieldErrors | undefined) =>
  (errors?.root?.message ?? errors?.message) as string | undefined;

function CreditTypesForm({
  courseId,
  types,
  onDone,
}: {
  courseId: string;
  types: CreditType[];
  onDone: () => void;
}) {
  const save = useSaveCourseCredit();
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<CreditFormInput, unknown, CourseCreditBody>({
    resolver: zodResolver(creditFormSchema),
    defaultValues: defaultsOf(types),
  });
  const bodies = useFieldArray({ control, name: "bodies" });
  const offered = useFieldArray({ control, name: "types" });
  const typedBodies = useWatch({ control, name: "bodies" });
  const typedTypes = useWatch({ control, name: "types" });
  const bodyNames = typedBodies.map((b) => b.name.trim()).filter(Boolean);

  const onSubmit = handleSubmit(async (credit) => {
    setServerError(null);
    try {
      await save.mutateAsync({ courseId, credit });
      toast({ title: CREDIT_ADMIN_TOASTS.creditTypesSaved });
      onDone();
    } catch (error) {
      setServerError(getErrorMessage(error) ?? "The credit types could not be saved.");
    }
  });

  /** "Prints 1.5 contact hours": the wording a certificate will use, as it is typed. */
  const preview = (i: number) => {
    const typed = typedTypes[i];
    const amount = Number(typed?.amount);
    if (!typed?.name.trim() || !(amount > 0) || !isHundredths(amount)) return null;
    return creditAmountText(amount, typed.name);
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Credit types"
      className="grid min-w-0 grid-cols-1 gap-6"
    >
      <fieldset className="grid min-w-0 gap-3" aria-describedby="credit-bodies-hint">
        <legend className="mb-1 text-sm font-semibold text-zinc-900">Accrediting bodies</legend>
        <p id="credit-bodies-hint" className="-mt-1 text-xs text-zinc-600">
          Each body once, with the provider number it gave you; every type it accredits prints it.
        </p>
        {bodies.fields.length === 0 ? (
          <p className="text-sm text-zinc-600">No accrediting body yet.</p>
        ) : (
          <ul className="grid gap-3">
            {bodies.fields.map((row, i) => {
              const prefix = `credit-body-${i}`;
              const error = errors.bodies?.[i];
              return (
                <li
                  key={row.id}
                  data-testid="credit-body-row"
                  className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-2 sm:grid-cols-[minmax(0,1fr)_minmax(0,12rem)_auto]"
                >
                  <Field
                    id={`${prefix}-name`}
                    label="Body"
                    error={error?.name?.message}
                    className="col-start-1 row-start-1"
                  >
                    <Input
                      id={`${prefix}-name`}
                      placeholder="e.g. NASBA, ANCC"
                      {...fieldAria(`${prefix}-name`, error?.name)}
                      {...register(`bodies.${i}.name`)}
                    />
                  </Field>
                  <Field
                    id={`${prefix}-number`}
                    label={optionalLabel("Provider number")}
                    error={error?.providerNumber?.message}
                    className="col-start-1 row-start-2 sm:col-start-2 sm:row-start-1"
                  >
                    <Input
                      id={`${prefix}-number`}
                      {...fieldAria(`${prefix}-number`, error?.providerNumber)}
                      {...register(`bodies.${i}.providerNumber`)}
                    />
                  </Field>
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    className="col-start-2 row-start-1 mt-6 text-zinc-600 sm:col-start-3"
                    aria-label={`Remove body ${typedBodies[i]?.name || i + 1}`}
                    onClick={() => bodies.remove(i)}
                  >
                    <Trash2Icon aria-hidden="true" />
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="w-fit"
          disabled={bodies.fields.length >= CREDIT_TYPES_MAX}
          onClick={() => bodies.append({ name: "", providerNumber: "" }, { shouldFocus: true })}
        >
          <PlusIcon aria-hidden="true" />
          Add body
        </Button>
      </fieldset>

      <fieldset className="grid min-w-0 gap-3" aria-describedby="credit-types-hint">
        <legend className="mb-1 text-sm font-semibold text-zinc-900">Credit types</legend>
        <p id="credit-types-hint" className="-mt-1 text-xs text-zinc-600">
          Name each as its body writes it, in the plural (contact hours, CPE credits, AMA PRA
          Category 1 Credit™): certificates print “1 contact hour”, “1.5 CPE credits”. No types: the
          course offers no credit.
        </p>
        {offered.fields.length === 0 ? (
          <p className="text-sm text-zinc-600">This course offers no credit.</p>
        ) : (
          <ol className="grid gap-4">
            {offered.fields.map((row, i) => {
              const prefix = `credit-type-${i}`;
              const error = errors.types?.[i];
              const prints = preview(i);
              return (
                <li
                  key={row.id}
                  data-testid="credit-type-row"
                  className="grid min-w-0 gap-4 rounded-xl border border-zinc-200 p-4"
                >
                  <div className="flex items-start justify-between gap-2">
                    <p className="text-sm font-semibold text-zinc-900">
                      Type {i + 1}
                      {prints ? (
                        <span className="ml-2 font-normal text-zinc-600">· prints “{prints}”</span>
                      ) : null}
                    </p>
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      className="-mt-1 text-zinc-600"
                      aria-label={`Remove credit type ${typedTypes[i]?.name || i + 1}`}
                      onClick={() => offered.remove(i)}
                    >
                      <Trash2Icon aria-hidden="true" />
                    </Button>
                  </div>
                  <div className="grid grid-cols-1 gap-4 sm:grid-cols-[minmax(0,1fr)_6.5rem_10rem]">
                    <Field id={`${prefix}-name`} label="Credit name" error={error?.name?.message}>
                      <Input
                        id={`${prefix}-name`}
                        placeholder="e.g. contact hours"
                        {...fieldAria(`${prefix}-name`, error?.name)}
                        {...register(`types.${i}.name`)}
                      />
                    </Field>
                    <Field id={`${prefix}-amount`} label="Amount" error={error?.amount?.message}>
                      <Input
                        id={`${prefix}-amount`}
                        inputMode="decimal"
                        placeholder="e.g. 1.5"
                        {...fieldAria(`${prefix}-amount`, error?.amount)}
                        {...register(`types.${i}.amount`)}
                      />
                    </Field>
                    <Field
                      id={`${prefix}-step`}
                      label={optionalLabel("Claim step")}
                      error={error?.claimStep?.message}
                    >
                      <Input
                        id={`${prefix}-step`}
                        inputMode="decimal"
                        placeholder="Whole"
                        {...fieldAria(`${prefix}-step`, error?.claimStep)}
                        {...register(`types.${i}.claimStep`)}
                      />
                    </Field>
                  </div>
                  <div className="grid grid-cols-1 items-end gap-4 sm:grid-cols-2">
                    <Field
                      id={`${prefix}-body`}
                      label="Accrediting body"
                      error={error?.accreditingBody?.message}
                    >
                      <select
                        id={`${prefix}-body`}
                        className={inputClassName}
                        {...fieldAria(`${prefix}-body`, error?.accreditingBody)}
                        {...register(`types.${i}.accreditingBody`)}
                      >
                        <option value="">None</option>
                        {bodyNames.map((name) => (
                          <option key={name} value={name}>
                            {name}
                          </option>
                        ))}
                      </select>
                    </Field>
                    <label className="flex cursor-pointer items-start gap-3 rounded-lg border border-zinc-200 p-2.5 text-sm has-[:checked]:border-indigo-300 has-[:checked]:bg-indigo-50/60 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500">
                      <input
                        type="checkbox"
                        className="mt-0.5 size-4 accent-indigo-600"
                        {...register(`types.${i}.licenceRequired`)}
                      />
                      <span className="text-zinc-900">Requires the learner's licence</span>
                    </label>
                  </div>
                  <Field
                    id={`${prefix}-accreditation`}
                    label={optionalLabel("Accreditation statement")}
                    error={error?.accreditationStatement?.message}
                  >
                    <Textarea
                      id={`${prefix}-accreditation`}
                      rows={2}
                      {...fieldAria(`${prefix}-accreditation`, error?.accreditationStatement)}
                      {...register(`types.${i}.accreditationStatement`)}
                    />
                  </Field>
                  <Field
                    id={`${prefix}-designation`}
                    label={optionalLabel("Designation statement")}
                    error={error?.designationStatement?.message}
                  >
                    <Textarea
                      id={`${prefix}-designation`}
                      rows={2}
                      {...fieldAria(`${prefix}-designation`, error?.designationStatement)}
                      {...register(`types.${i}.designationStatement`)}
                    />
                  </Field>
                </li>
              );
            })}
          </ol>
        )}
        {listError(errors.types as FieldErrors | undefined) ? (
          <p role="alert" className="text-xs font-medium text-red-700">
            {listError(errors.types as FieldErrors | undefined)}
          </p>
        ) : null}
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="w-fit"
          disabled={offered.fields.length >= CREDIT_TYPES_MAX}
          onClick={() => offered.append({ ...BLANK_TYPE }, { shouldFocus: true })}
        >
          <PlusIcon aria-hidden="true" />
          Add credit type
        </Button>
      </fieldset>

      <FormAlert message={serverError} />
      <DialogFooter className="pt-1">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? <Spinner /> : null}
          Save credit types
        </Button>
      </DialogFooter>
    </form>
  );
}
