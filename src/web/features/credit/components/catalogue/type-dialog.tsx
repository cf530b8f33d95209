import {
  type CatalogueType,
  type CreditCatalogue,
  catalogueTypeBodySchema,
  creditAmountText,
  REGULATOR_NAMES,
  REGULATORS,
  type Regulator,
  singularOf,
} from "@contract";
import { type FormEvent, type ReactNode, useState } from "react";
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
import { Input, inputClassName } from "../../../../components/ui/input";
import { Spinner } from "../../../../components/ui/spinner";
import { Textarea } from "../../../../components/ui/textarea";
import { useSaveCatalogueType } from "../../api/admin-save-catalogue-type";
import { CATALOGUE_TOASTS } from "../../catalogue-labels";
import { FormAlert } from "../admin/form-alert";
import { useCatalogueSave } from "./use-catalogue-save";

const optional = (label: string) => (
  <>
    {label} <span className="font-normal text-zinc-500">(optional)</span>
  </>
);

/**
 * Adds a credit type to the catalogue, or edits one (`type`) for every course that offers
 * it: its name as the body writes it, its body, statements, profession, regulators and rules.
 */
export function TypeDialog({
  open,
  onOpenChange,
  type,
  bodies,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  type?: CatalogueType;
  bodies: CreditCatalogue["bodies"];
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{type ? `Edit ${type.name}` : "Add credit type"}</DialogTitle>
          <DialogDescription>
            {type?.courses
              ? `Changes apply to the ${type.courses === 1 ? "course" : `${type.courses} courses`} offering it; certificates already issued keep what they printed.`
              : "Named once here, offered by any course with its own amount."}
          </DialogDescription>
        </DialogHeader>
        {open ? <TypeForm type={type} bodies={bodies} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function TypeForm({
  type,
  bodies,
  onDone,
}: {
  type?: CatalogueType;
  bodies: CreditCatalogue["bodies"];
  onDone: () => void;
}) {
  const [name, setName] = useState(type?.name ?? "");
  // The singular follows the plural as it is typed, until the administrator writes their own.
  const [singularName, setSingularName] = useState(type?.singularName ?? "");
  const [singularEdited, setSingularEdited] = useState(Boolean(type));
  const [bodyId, setBodyId] = useState(type?.bodyId ?? bodies[0]?.id ?? "");
  const [profession, setProfession] = useState(type?.profession ?? "");
  const [accreditationStatement, setAccreditationStatement] = useState(
    type?.accreditationStatement ?? "",
  );
  const [designationStatement, setDesignationStatement] = useState(
    type?.designationStatement ?? "",
  );
  const [regulators, setRegulators] = useState<Regulator[]>(type?.regulators ?? []);
  const [fieldsOfStudyRequired, setFieldsOfStudyRequired] = useState(
    type?.fieldsOfStudyRequired ?? false,
  );
  const [licenceRequired, setLicenceRequired] = useState(type?.licenceRequired ?? false);
  const save = useSaveCatalogueType();
  const { errors, serverError, edited, submit } = useCatalogueSave({
    schema: catalogueTypeBodySchema,
    save,
    id: type?.id,
    savedTitle: type ? CATALOGUE_TOASTS.typeSaved : CATALOGUE_TOASTS.typeAdded,
    failure: "The credit type could not be saved.",
    nameTaken: "catalogue.type_name_taken",
    onDone,
  });

  function onName(value: string) {
    edited("name");
    setName(value);
    if (!singularEdited) setSingularName(singularOf(value));
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    submit({
      name,
      singularName,
      bodyId: bodyId || null,
      accreditationStatement,
      designationStatement,
      profession,
      regulators,
      fieldsOfStudyRequired,
      licenceRequired,
    });
  }

  const prints =
    name.trim() && singularName.trim()
      ? `${creditAmountText(1, name, singularName)}”, “${creditAmountText(2, name, singularName)}`
      : null;

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Credit type"
      className="grid min-w-0 grid-cols-1 gap-5"
    >
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field
          id="catalogue-type-name"
          label="Credit name"
          hint="As the body writes it for more than one."
          error={errors.name}
        >
          <Input
            id="catalogue-type-name"
            value={name}
            placeholder="e.g. contact hours"
            onChange={(e) => onName(e.target.value)}
            {...fieldAria("catalogue-type-name", errors.name, { hint: true })}
          />
        </Field>
        <Field
          id="catalogue-type-singular"
          label="Name for exactly 1"
          hint={prints ? `Certificates print “${prints}”.` : "As the body writes exactly one."}
          error={errors.singularName}
        >
          <Input
            id="catalogue-type-singular"
            value={singularName}
            placeholder="e.g. contact hour"
            onChange={(e) => {
              edited("singularName");
              setSingularEdited(true);
              setSingularName(e.target.value);
            }}
            {...fieldAria("catalogue-type-singular", errors.singularName, { hint: true })}
          />
        </Field>
        <Field id="catalogue-type-body" label="Accrediting body" error={errors.bodyId}>
          <select
            id="catalogue-type-body"
            className={inputClassName}
            value={bodyId}
            onChange={(e) => {
              edited("bodyId");
              setBodyId(e.target.value);
            }}
            {...fieldAria("catalogue-type-body", errors.bodyId)}
          >
            <option value="">None</option>
            {bodies.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </select>
        </Field>
        <Field
          id="catalogue-type-profession"
          label="Profession"
          hint="Whom the credit serves; learners see it beside the course."
          error={errors.profession}
        >
          <Input
            id="catalogue-type-profession"
            value={profession}
            placeholder="e.g. Nursing"
            onChange={(e) => {
              edited("profession");
              setProfession(e.target.value);
            }}
            {...fieldAria("catalogue-type-profession", errors.profession, { hint: true })}
          />
        </Field>
      </div>
      <Field
        id="catalogue-type-accreditation"
        label={optional("Accreditation statement")}
        error={errors.accreditationStatement}
      >
        <Textarea
          id="catalogue-type-accreditation"
          rows={2}
          value={accreditationStatement}
          onChange={(e) => {
            edited("accreditationStatement");
            setAccreditationStatement(e.target.value);
          }}
          {...fieldAria("catalogue-type-accreditation", errors.accreditationStatement)}
        />
      </Field>
      <Field
        id="catalogue-type-designation"
        label={optional("Default designation statement")}
        hint="A course offering this type starts from it, then states its own amount."
        error={errors.designationStatement}
      >
        <Textarea
          id="catalogue-type-designation"
          rows={2}
          value={designationStatement}
          onChange={(e) => {
            edited("designationStatement");
            setDesignationStatement(e.target.value);
          }}
          {...fieldAria("catalogue-type-designation", errors.designationStatement, {
            hint: true,
          })}
        />
      </Field>
      <fieldset className="m-0 grid min-w-0 gap-2 border-0 p-0">
        <legend className="mb-2 text-sm font-medium text-zinc-900">
          Reported to <span className="font-normal text-zinc-500">(optional)</span>
        </legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {REGULATORS.map((regulator) => (
            <Choice
              key={regulator}
              checked={regulators.includes(regulator)}
              onChange={(on) =>
                setRegulators((list) =>
                  on
                    ? REGULATORS.filter((r) => r === regulator || list.includes(r))
                    : list.filter((r) => r !== regulator),
                )
              }
            >
              {REGULATOR_NAMES[regulator]}
            </Choice>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-2 sm:grid-cols-2">
        <Choice checked={licenceRequired} onChange={setLicenceRequired}>
          Requires the learner's licence
        </Choice>
        <Choice checked={fieldsOfStudyRequired} onChange={setFieldsOfStudyRequired}>
          Fields of study must add up to the credit (NASBA)
        </Choice>
      </div>
      <FormAlert message={serverError} />
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? <Spinner /> : null}
          {type ? "Save credit type" : "Add credit type"}
        </Button>
      </DialogFooter>
    </form>
  );
}

function Choice({
  checked,
  onChange,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  return (
    <label className="flex cursor-pointer items-start gap-3 rounded-lg border border-zinc-200 p-2.5 text-sm text-zinc-900 has-[:checked]:border-indigo-300 has-[:checked]:bg-indigo-50/60 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500">
      <input
        type="checkbox"
        className="mt-0.5 size-4 accent-indigo-600"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span>{children}</span>
    </label>
  );
}
