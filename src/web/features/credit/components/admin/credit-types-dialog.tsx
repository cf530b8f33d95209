import {
  type CatalogueType,
  type CourseCreditBody,
  CREDIT_TYPES_MAX,
  type CreditCatalogue,
  type CreditType,
  courseCreditBodyOf,
  courseCreditBodySchema,
  creditAmountText,
  isHundredths,
} from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { LibraryBigIcon, PlusIcon, Trash2Icon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { type FieldErrors, useFieldArray, useForm, useWatch } from "react-hook-form";
import { Link } from "react-router";
import { z } from "zod";
import { Badge } from "../../../../components/ui/badge";
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
import { EmptyState } from "../../../../components/ui/empty-state";
import { Field, FieldError, fieldAria } from "../../../../components/ui/field";
import { Input, inputClassName } from "../../../../components/ui/input";
import { LoadError } from "../../../../components/ui/load-error";
import { Skeleton } from "../../../../components/ui/skeleton";
import { Spinner } from "../../../../components/ui/spinner";
import { Textarea } from "../../../../components/ui/textarea";
import { toast } from "../../../../components/ui/use-toast";
import { getErrorMessage, loadFailureHint } from "../../../../lib/api-client";
import { useCreditCatalogue } from "../../api/admin-get-credit-catalogue";
import { useSaveCourseCredit } from "../../api/admin-save-course-credit";
import { CREDIT_CATALOGUE_PATH, catalogueTypeLabel } from "../../catalogue-labels";
import { blankOrNumber, CREDIT_ADMIN_TOASTS, numberText } from "./admin-labels";
import { FormAlert } from "./form-alert";

/** The form as typed (amounts as text), then the contract's rules, which the server runs too. */
const creditFormSchema = z
  .object({
    types: z.array(
      z.object({
        id: z.string().optional(),
        catalogueTypeId: z.string(),
        amount: z.string(),
        designationStatement: z.string(),
        claimStep: z.string(),
      }),
    ),
  })
  .transform(
    (v): z.input<typeof courseCreditBodySchema> => ({
      bodies: [],
      types: v.types.map(({ amount, claimStep, catalogueTypeId, ...t }) => ({
        ...t,
        catalogueTypeId: catalogueTypeId || undefined,
        amount: blankOrNumber(amount) ?? Number.NaN,
        claimStep: blankOrNumber(claimStep),
      })),
    }),
  )
  .pipe(courseCreditBodySchema);
type CreditFormInput = z.input<typeof creditFormSchema>;

function defaultsOf(types: CreditType[]): CreditFormInput {
  return {
    types: courseCreditBodyOf(types).types.map((t) => ({
      id: t.id,
      catalogueTypeId: t.catalogueTypeId ?? "",
      amount: numberText(t.amount),
      designationStatement: t.designationStatement,
      claimStep: numberText(t.claimStep),
    })),
  };
}

const BLANK_TYPE: CreditFormInput["types"][number] = {
  catalogueTypeId: "",
  amount: "",
  designationStatement: "",
  claimStep: "",
};

/**
 * The one place a course's credit is set: the credit types it offers, chosen from the
 * organisation's catalogue (which names them, their bodies and statements), each with the
 * course's own amount, claim step and designation.
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
        {open ? (
          <CatalogueLoaded>
            {(catalogue) => (
              <CreditTypesForm
                courseId={courseId}
                types={types}
                catalogue={catalogue}
                onDone={() => setOpen(false)}
              />
            )}
          </CatalogueLoaded>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

/** The catalogue the types are chosen from, or why there is nothing to choose yet. */
function CatalogueLoaded({ children }: { children: (catalogue: CreditCatalogue) => ReactNode }) {
  const query = useCreditCatalogue();
  if (query.isPending) {
    return (
      <div role="status" aria-label="Loading the credit catalogue" className="grid gap-3">
        <Skeleton className="h-10 rounded-lg" />
        <Skeleton className="h-32 rounded-xl" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadError
        message={loadFailureHint(query.error, "The credit catalogue could not be loaded.")}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (!query.data.types.length) {
    return (
      <EmptyState
        icon={<LibraryBigIcon />}
        title="No credit types in your catalogue yet"
        description="Courses offer credit from the organisation's credit catalogue. Add your accrediting bodies and the credit types they accredit in Settings, then choose them here."
        action={
          <Button asChild>
            <Link to={CREDIT_CATALOGUE_PATH}>Open the credit catalogue</Link>
          </Button>
        }
      />
    );
  }
  return children(query.data);
}

const optionalLabel = (label: string) => (
  <>
    {label} <span className="font-normal text-zinc-500">(optional)</span>
  </>
);

/** The message of a list's own rule (rather than one of its rows'), if any. */
const listError = (errors: FieldErrors | undefined) =>
  (errors?.root?.message ?? errors?.message) as string | undefined;

/** "ANCC · Provider no. P-0421 · Nursing · Licence required": what the catalogue sets. */
function catalogueFacts(type: CatalogueType, catalogue: CreditCatalogue) {
  const body = catalogue.bodies.find((b) => b.id === type.bodyId);
  return [
    body
      ? `${body.name}${body.providerNumber ? ` · Provider no. ${body.providerNumber}` : ""}`
      : "No accrediting body",
    type.profession || null,
    type.licenceRequired ? "Licence required" : null,
    type.fieldsOfStudyRequired ? "Fields of study required" : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

function CreditTypesForm({
  courseId,
  types,
  catalogue,
  onDone,
}: {
  courseId: string;
  types: CreditType[];
  catalogue: CreditCatalogue;
  onDone: () => void;
}) {
  const save = useSaveCourseCredit();
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm<CreditFormInput, unknown, CourseCreditBody>({
    resolver: zodResolver(creditFormSchema),
    defaultValues: defaultsOf(types),
  });
  const offered = useFieldArray({ control, name: "types" });
  const typedTypes = useWatch({ control, name: "types" });
  const typeOf = (i: number) =>
    catalogue.types.find((t) => t.id === typedTypes[i]?.catalogueTypeId);

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
    const type = typeOf(i);
    const amount = Number(typedTypes[i]?.amount);
    if (!type || !(amount > 0) || !isHundredths(amount)) return null;
    return creditAmountText(amount, type.name, type.singularName);
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Credit types"
      className="grid min-w-0 grid-cols-1 gap-6"
    >
      <fieldset className="grid min-w-0 gap-3" aria-describedby="credit-types-hint">
        <legend className="mb-1 text-sm font-semibold text-zinc-900">Credit types offered</legend>
        <p id="credit-types-hint" className="-mt-1 text-xs text-zinc-600">
          Chosen from your organisation's credit catalogue, which names each type, its body and its
          accreditation statement.{" "}
          <Link
            to={CREDIT_CATALOGUE_PATH}
            className="font-medium text-indigo-700 underline-offset-4 hover:underline"
          >
            Manage the credit catalogue
          </Link>
          . No types: the course offers no credit.
        </p>
        {offered.fields.length === 0 ? (
          <p className="text-sm text-zinc-600">This course offers no credit.</p>
        ) : (
          <ol className="grid gap-4">
            {offered.fields.map((row, i) => {
              const prefix = `credit-type-${i}`;
              const error = errors.types?.[i];
              // The contract names a row without a type by its name, which this form chooses.
              const typeError =
                error?.catalogueTypeId?.message ??
                ((error as FieldErrors | undefined)?.name?.message as string | undefined);
              const chosen = typeOf(i);
              const prints = preview(i);
              const field = register(`types.${i}.catalogueTypeId`);
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
                      aria-label={`Remove credit type ${chosen?.name ?? i + 1}`}
                      onClick={() => offered.remove(i)}
                    >
                      <Trash2Icon aria-hidden="true" />
                    </Button>
                  </div>
                  <Field
                    id={`${prefix}-type`}
                    label="Credit type"
                    hint={
                      chosen ? (
                        <span className="flex flex-wrap items-center gap-1.5">
                          {catalogueFacts(chosen, catalogue)}
                          {chosen.needsReview ? (
                            <Badge variant="warning">Review in the catalogue</Badge>
                          ) : null}
                        </span>
                      ) : undefined
                    }
                    error={typeError}
                  >
                    <select
                      id={`${prefix}-type`}
                      className={inputClassName}
                      {...fieldAria(`${prefix}-type`, typeError, { hint: Boolean(chosen) })}
                      {...field}
                      onChange={(event) => {
                        void field.onChange(event);
                        // A newly chosen type starts from its catalogue designation.
                        const picked = catalogue.types.find((t) => t.id === event.target.value);
                        setValue(
                          `types.${i}.designationStatement`,
                          picked?.designationStatement ?? "",
                        );
                      }}
                    >
                      <option value="">Choose a credit type</option>
                      {catalogue.types.map((t) => (
                        <option
                          key={t.id}
                          value={t.id}
                          disabled={typedTypes.some(
                            (other, j) => j !== i && other?.catalogueTypeId === t.id,
                          )}
                        >
                          {catalogueTypeLabel(t, catalogue.bodies)}
                        </option>
                      ))}
                    </select>
                  </Field>
                  <div className="grid grid-cols-2 gap-4 sm:grid-cols-[10rem_10rem]">
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
        <FieldError>{listError(errors.types as FieldErrors | undefined)}</FieldError>
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="w-fit"
          disabled={offered.fields.length >= Math.min(CREDIT_TYPES_MAX, catalogue.types.length)}
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
