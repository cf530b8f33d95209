import {
  CERTIFYING_BOARDS,
  type Identifiers,
  type IdentifiersBody,
  type IdentifiersInput,
  identifiersBodySchema,
  LICENCES_MAX,
  type LicenceEntry,
  US_STATE_NAMES,
  US_STATES,
} from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { PlusIcon, Trash2Icon } from "lucide-react";
import type { ReactNode } from "react";
import {
  type FieldErrors,
  type Resolver,
  type UseFormReturn,
  useFieldArray,
} from "react-hook-form";
import { Button } from "../../../../components/ui/button";
import { Field, FieldError, fieldAria } from "../../../../components/ui/field";
import { Input } from "../../../../components/ui/input";
import { NativeSelect } from "../../../../components/ui/native-select";

/** The form's values: the record as stored (selects answer text, the birth date numbers). */
export type IdentifiersForm = Identifiers;

/**
 * The parts of the record a form shows: every licence (the profile) or the first alone (the
 * attestation, which asks for one), and the other identifiers by what they are for.
 */
export type IdentifierGroup =
  | "licences"
  | "firstLicence"
  | "npi"
  | "npn"
  | "nabpEpid"
  | "name"
  | "birth"
  | "profession"
  | "board";

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const DAYS = Array.from({ length: 31 }, (_, i) => i + 1);
export const BLANK_LICENCE: LicenceEntry = { licenceType: "", licenceState: "", licenceNumber: "" };

/** A month as the learner reads it back: "February". */
export const monthName = (month: number) => MONTHS[month - 1] ?? "";

const numberOrNull = (v: unknown) => (v === "" || v === null ? null : Number(v));
const isTyped = (l: LicenceEntry) =>
  Boolean(l.licenceType.trim() || l.licenceState || l.licenceNumber.trim());

/**
 * What the form saves: the values of the groups it shows, never a blank licence row. The
 * first licence alone takes the place of the record's first; the others are kept.
 */
export function patchOf(
  values: IdentifiersForm,
  groups: readonly IdentifierGroup[],
  saved: Identifiers,
): IdentifiersInput {
  const shows = (group: IdentifierGroup) => groups.includes(group);
  const patch: IdentifiersInput = {};
  if (shows("licences")) patch.licences = values.licences.filter(isTyped);
  if (shows("firstLicence")) {
    const [first] = values.licences;
    if (first && isTyped(first)) patch.licences = [first, ...saved.licences.slice(1)];
    else if (saved.licences.length) patch.licences = saved.licences.slice(1);
  }
  if (shows("npi")) patch.npi = values.npi;
  if (shows("npn")) patch.npn = values.npn;
  if (shows("nabpEpid")) patch.nabpEpid = values.nabpEpid;
  if (shows("profession")) patch.profession = values.profession;
  if (shows("name"))
    Object.assign(patch, { firstName: values.firstName, lastName: values.lastName });
  if (shows("birth")) {
    Object.assign(patch, { birthMonth: values.birthMonth, birthDay: values.birthDay });
  }
  if (shows("board")) {
    patch.certifyingBoard = values.certifyingBoard as IdentifiersInput["certifyingBoard"];
    patch.boardId = values.boardId;
  }
  return patch;
}

/**
 * Checks what the form would save by the contract's rules, the server's own, then by what
 * the page itself requires of the values as they would be saved (`required`). A licence's
 * errors land on its row, blank rows skipped.
 */
export function identifiersResolver(
  groups: readonly IdentifierGroup[],
  saved: Identifiers,
  required: (patch: IdentifiersBody) => FieldErrors<IdentifiersForm> = () => ({}),
): Resolver<IdentifiersForm> {
  const check = zodResolver(identifiersBodySchema);
  return async (values, context, options) => {
    const result = await check(patchOf(values, groups, saved), context, options as never);
    const errors = (
      Object.keys(result.errors).length ? result.errors : required(result.values as IdentifiersBody)
    ) as FieldErrors<IdentifiersForm>;
    const rows = errors.licences;
    if (groups.includes("licences") && Array.isArray(rows)) {
      // The rows sent are the typed ones: each error goes back to the row it came from.
      const typedAt = values.licences.flatMap((l, i) => (isTyped(l) ? [i] : []));
      const placed: unknown[] = [];
      rows.forEach((error, i) => {
        placed[typedAt[i] ?? i] = error;
      });
      const root = (rows as { root?: unknown }).root;
      errors.licences = Object.assign(placed, { root }) as typeof errors.licences;
    }
    return Object.keys(errors).length ? { values: {}, errors } : { values, errors: {} };
  };
}

/** The inputs of the groups given, for the record's form (the profile's or the attestation's). */
export function IdentifierFields({
  form,
  groups,
  idPrefix,
}: {
  form: UseFormReturn<IdentifiersForm>;
  groups: readonly IdentifierGroup[];
  /** Keeps the ids unique where two forms could share a page. */
  idPrefix: string;
}) {
  const {
    register,
    formState: { errors },
  } = form;
  const shows = (group: IdentifierGroup) => groups.includes(group);
  const text = (
    name: "npi" | "npn" | "nabpEpid" | "profession" | "firstName" | "lastName" | "boardId",
    label: string,
    hint?: ReactNode,
    extra: { inputMode?: "numeric"; autoComplete?: string } = {},
  ) => {
    const id = `${idPrefix}-${name}`;
    return (
      <Field id={id} label={label} hint={hint} error={errors[name]?.message}>
        <Input
          id={id}
          autoComplete="off"
          {...extra}
          {...fieldAria(id, errors[name], { hint: Boolean(hint) })}
          {...register(name)}
        />
      </Field>
    );
  };

  return (
    <div className="grid gap-5 sm:grid-cols-2">
      {shows("licences") ? <LicenceRows form={form} idPrefix={idPrefix} /> : null}
      {shows("firstLicence") ? (
        <div className="grid gap-5 sm:col-span-2 sm:grid-cols-[minmax(0,1fr)_11rem_minmax(0,1fr)]">
          <LicenceInputs form={form} index={0} idPrefix={idPrefix} />
        </div>
      ) : null}
      {shows("npi")
        ? text("npi", "NPI", "Your National Provider Identifier: 10 digits.", {
            inputMode: "numeric",
          })
        : null}
      {shows("nabpEpid")
        ? text(
            "nabpEpid",
            "NABP e-Profile ID",
            "Pharmacists and technicians, for CPE Monitor: 6 or 7 digits.",
            { inputMode: "numeric" },
          )
        : null}
      {shows("name") ? (
        <>
          {text("firstName", "First name", "As your licensing board knows you.", {
            autoComplete: "given-name",
          })}
          {text("lastName", "Last name", undefined, { autoComplete: "family-name" })}
        </>
      ) : null}
      {shows("birth") ? (
        <fieldset className="grid gap-2 sm:col-span-2" aria-describedby={`${idPrefix}-birth-hint`}>
          <legend className="text-sm font-medium text-zinc-900">Month and day of birth</legend>
          <p className="-mt-1 text-xs text-zinc-600" id={`${idPrefix}-birth-hint`}>
            Regulators match you by it; the year is never asked.
          </p>
          <div className="grid grid-cols-2 gap-3 sm:max-w-sm">
            <Field id={`${idPrefix}-birth-month`} label="Month" error={errors.birthMonth?.message}>
              <NativeSelect
                id={`${idPrefix}-birth-month`}
                {...fieldAria(`${idPrefix}-birth-month`, errors.birthMonth)}
                {...register("birthMonth", { setValueAs: numberOrNull })}
              >
                <option value="">Month</option>
                {MONTHS.map((name, i) => (
                  <option key={name} value={i + 1}>
                    {name}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field id={`${idPrefix}-birth-day`} label="Day" error={errors.birthDay?.message}>
              <NativeSelect
                id={`${idPrefix}-birth-day`}
                {...fieldAria(`${idPrefix}-birth-day`, errors.birthDay)}
                {...register("birthDay", { setValueAs: numberOrNull })}
              >
                <option value="">Day</option>
                {DAYS.map((day) => (
                  <option key={day} value={day}>
                    {day}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          </div>
        </fieldset>
      ) : null}
      {shows("npn")
        ? text("npn", "NPN", "Insurance producers: your National Producer Number.", {
            inputMode: "numeric",
          })
        : null}
      {shows("profession")
        ? text("profession", "Profession", "Your licence's profession code, such as RN or LPN.")
        : null}
      {shows("board") ? (
        <>
          <Field
            id={`${idPrefix}-board`}
            label="Certifying board"
            hint="For MOC credit: the board that certifies you."
            error={errors.certifyingBoard?.message}
          >
            <NativeSelect
              id={`${idPrefix}-board`}
              {...fieldAria(`${idPrefix}-board`, errors.certifyingBoard, { hint: true })}
              {...register("certifyingBoard")}
            >
              <option value="">None</option>
              {CERTIFYING_BOARDS.map((board) => (
                <option key={board} value={board}>
                  {board}
                </option>
              ))}
            </NativeSelect>
          </Field>
          {text("boardId", "Board ID")}
        </>
      ) : null}
    </div>
  );
}

/** Every licence, each on its row, added and removed in place. */
function LicenceRows({
  form,
  idPrefix,
}: {
  form: UseFormReturn<IdentifiersForm>;
  idPrefix: string;
}) {
  const rows = useFieldArray({ control: form.control, name: "licences" });
  const listError = form.formState.errors.licences?.root?.message;
  return (
    <fieldset className="grid gap-3 sm:col-span-2" aria-describedby={`${idPrefix}-licences-hint`}>
      <legend className="text-sm font-medium text-zinc-900">Licences</legend>
      <p className="-mt-1 text-xs text-zinc-600" id={`${idPrefix}-licences-hint`}>
        Each licence with the state that issued it. Certificates print the first one.
      </p>
      {rows.fields.map((row, index) => (
        <div
          key={row.id}
          data-testid="licence-row"
          className="grid gap-4 rounded-xl border border-zinc-200 p-3 sm:grid-cols-[minmax(0,1fr)_11rem_minmax(0,1fr)_auto] sm:gap-3"
        >
          <LicenceInputs form={form} index={index} idPrefix={idPrefix} />
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className="justify-self-end sm:mt-6"
            aria-label={`Remove licence ${index + 1}`}
            onClick={() => rows.remove(index)}
          >
            <Trash2Icon aria-hidden="true" />
          </Button>
        </div>
      ))}
      <FieldError>{listError}</FieldError>
      {rows.fields.length < LICENCES_MAX ? (
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="w-fit"
          onClick={() => rows.append(BLANK_LICENCE)}
        >
          <PlusIcon aria-hidden="true" />
          Add a licence
        </Button>
      ) : null}
    </fieldset>
  );
}

/** One licence's type or board, state and number. */
function LicenceInputs({
  form,
  index,
  idPrefix,
}: {
  form: UseFormReturn<IdentifiersForm>;
  index: number;
  idPrefix: string;
}) {
  const { register } = form;
  const errors = form.formState.errors.licences?.[index];
  const id = `${idPrefix}-licence-${index}`;
  return (
    <>
      <Field id={`${id}-type`} label="Licence type or board" error={errors?.licenceType?.message}>
        <Input
          id={`${id}-type`}
          placeholder="e.g. RN, MD, CPA"
          {...fieldAria(`${id}-type`, errors?.licenceType)}
          {...register(`licences.${index}.licenceType`)}
        />
      </Field>
      <Field id={`${id}-state`} label="State" error={errors?.licenceState?.message}>
        <NativeSelect
          id={`${id}-state`}
          {...fieldAria(`${id}-state`, errors?.licenceState)}
          {...register(`licences.${index}.licenceState`)}
        >
          <option value="">Choose a state</option>
          {US_STATES.map((code) => (
            <option key={code} value={code}>
              {code} · {US_STATE_NAMES[code]}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field id={`${id}-number`} label="Licence number" error={errors?.licenceNumber?.message}>
        <Input
          id={`${id}-number`}
          autoComplete="off"
          {...fieldAria(`${id}-number`, errors?.licenceNumber)}
          {...register(`licences.${index}.licenceNumber`)}
        />
      </Field>
    </>
  );
}
