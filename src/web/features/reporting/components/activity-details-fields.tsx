import {
  type ActivityDetails,
  CERTIFYING_BOARDS,
  type CourseReportingInput,
  PARS_COMPETENCIES,
  PARS_LIVE_FORMATS,
  type Regulator,
  US_STATES,
} from "@contract";
import { PlusIcon, Trash2Icon } from "lucide-react";
import { Button } from "../../../components/ui/button";
import { Checkbox } from "../../../components/ui/checkbox";
import { Field } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { Label } from "../../../components/ui/label";
import { NativeSelect } from "../../../components/ui/native-select";
import { DateField } from "./date-field";

/** What a regulator's upload says of the activity, as the course card edits it. */
export type DetailsDraft = Omit<ActivityDetails, "supporters"> & {
  /** Amounts as typed, in dollars. */
  supporters: { source: string; amount: string }[];
};

export const detailsDraftOf = (d: ActivityDetails): DetailsDraft => ({
  ...d,
  supporters: d.supporters.map((s) => ({ source: s.source, amount: String(s.amount) })),
});

type DetailsBody = NonNullable<
  CourseReportingInput["types"][number]["regulators"][number]["details"]
>;

/**
 * The draft as the API takes it: only what the regulator's upload holds, the location only
 * for an activity held in person and the supporters only when commercial support was received.
 */
export function detailsBodyOf(
  regulator: Regulator,
  d: DetailsDraft,
  pars: { activityFormat: string; commercialSupport: string },
): DetailsBody {
  if (regulator === "ce_broker")
    return { providerCode: d.providerCode, subjectArea: d.subjectArea };
  if (regulator === "cpe_monitor") {
    return { registeredFrom: d.registeredFrom, registeredTo: d.registeredTo };
  }
  const live = PARS_LIVE_FORMATS.includes(pars.activityFormat);
  return {
    providerCode: d.providerCode,
    ...(live ? { city: d.city, state: d.state, country: d.country.toUpperCase() } : {}),
    competencies: d.competencies as DetailsBody["competencies"],
    supporters:
      pars.commercialSupport === "yes"
        ? d.supporters.map((s) => ({
            source: s.source,
            amount: s.amount.trim() === "" ? Number.NaN : Number(s.amount),
          }))
        : [],
    mocBoard: d.mocBoard as DetailsBody["mocBoard"],
    mocCreditType: d.mocBoard ? d.mocCreditType : "",
  };
}

type FieldsProps = {
  base: string;
  value: DetailsDraft;
  onChange: (change: Partial<DetailsDraft>) => void;
};

/**
 * The provider's own code of the activity: PARS's provider activity ID (the key PARS updates
 * the activity by) and CE Broker's provider course code.
 */
export function ProviderCodeField({
  base,
  regulator,
  value,
  onChange,
}: FieldsProps & { regulator: "pars" | "ce_broker" }) {
  const [label, hint] =
    regulator === "pars"
      ? ["Provider activity ID", "Your own number of the activity: PARS updates it by this."]
      : ["Provider course code", "Your code of the course, as registered with CE Broker."];
  return (
    <Field id={`${base}-code`} label={label} hint={hint}>
      <Input
        id={`${base}-code`}
        value={value.providerCode}
        inputMode="numeric"
        autoComplete="off"
        aria-describedby={`${base}-code-hint`}
        onChange={(e) => onChange({ providerCode: e.target.value })}
      />
    </Field>
  );
}

/** CE Broker: the subject area partial credit is recorded in. */
export function CeBrokerDetailsFields({ base, value, onChange }: FieldsProps) {
  return (
    <Field
      id={`${base}-subject`}
      label="Subject area code"
      hint="Partial credit is recorded in it."
    >
      <Input
        id={`${base}-subject`}
        value={value.subjectArea}
        autoComplete="off"
        aria-describedby={`${base}-subject-hint`}
        onChange={(e) => onChange({ subjectArea: e.target.value })}
      />
    </Field>
  );
}

/** CPE Monitor: the days of participation the activity is registered for with ACPE. */
export function CpeMonitorDetailsFields({ base, value, onChange }: FieldsProps) {
  return (
    <fieldset className="grid gap-3 sm:col-span-2 sm:grid-cols-2">
      <legend className="text-sm font-medium text-zinc-900">Registered dates</legend>
      <p className="text-xs text-zinc-600 sm:col-span-2">
        As registered with ACPE: CPE Monitor refuses a completion outside them, so Credo holds it
        back and says why.
      </p>
      <DateField
        id={`${base}-registered-from`}
        label="Registered from"
        value={value.registeredFrom}
        onChange={(registeredFrom) => onChange({ registeredFrom })}
      />
      <DateField
        id={`${base}-registered-to`}
        label="Registered to"
        value={value.registeredTo}
        onChange={(registeredTo) => onChange({ registeredTo })}
      />
    </fieldset>
  );
}

/**
 * PARS: where a live activity is held, its competencies, its commercial supporters with
 * their amounts, and MOC.
 */
export function ParsDetailsFields({
  base,
  value,
  onChange,
  activityFormat,
  commercialSupport,
}: FieldsProps & { activityFormat: string; commercialSupport: string }) {
  const live = PARS_LIVE_FORMATS.includes(activityFormat);
  const setSupporter = (i: number, change: Partial<DetailsDraft["supporters"][number]>) =>
    onChange({
      supporters: value.supporters.map((s, j) => (j === i ? { ...s, ...change } : s)),
    });
  return (
    <>
      {live ? (
        <fieldset className="grid gap-3 sm:col-span-2 sm:grid-cols-3">
          <legend className="mb-2 text-sm font-medium text-zinc-900">Where it is held</legend>
          <Field id={`${base}-city`} label="City">
            <Input
              id={`${base}-city`}
              value={value.city}
              autoComplete="off"
              onChange={(e) => onChange({ city: e.target.value })}
            />
          </Field>
          <Field id={`${base}-state`} label="State">
            <NativeSelect
              id={`${base}-state`}
              value={value.state}
              onChange={(e) => onChange({ state: e.target.value })}
            >
              <option value="">None (outside the US)</option>
              {US_STATES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field id={`${base}-country`} label="Country (ISO code)">
            <Input
              id={`${base}-country`}
              value={value.country}
              placeholder="USA"
              maxLength={3}
              autoComplete="off"
              onChange={(e) => onChange({ country: e.target.value })}
            />
          </Field>
        </fieldset>
      ) : null}
      <details className="rounded-lg border border-zinc-200 px-3 py-2 sm:col-span-2">
        <summary className="cursor-pointer text-sm font-medium text-zinc-900">
          Competencies addressed ({value.competencies.length} chosen)
        </summary>
        <div className="mt-3 grid gap-2">
          {PARS_COMPETENCIES.map((c, i) => (
            <div key={c} className="flex items-start gap-2">
              <Checkbox
                id={`${base}-competency-${i}`}
                className="mt-0.5"
                checked={value.competencies.includes(c)}
                onCheckedChange={(checked) =>
                  onChange({
                    competencies:
                      checked === true
                        ? PARS_COMPETENCIES.filter((o) => o === c || value.competencies.includes(o))
                        : value.competencies.filter((o) => o !== c),
                  })
                }
              />
              <Label htmlFor={`${base}-competency-${i}`} className="font-normal leading-snug">
                {c}
              </Label>
            </div>
          ))}
        </div>
      </details>
      {commercialSupport === "yes" ? (
        <fieldset className="grid gap-3 sm:col-span-2">
          <legend className="mb-2 text-sm font-medium text-zinc-900">Commercial supporters</legend>
          {value.supporters.map((s, i) => (
            <div
              // Supporters have no id of their own until saved; their place is their key.
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place.
              key={i}
              className="grid grid-cols-[minmax(0,1fr)_6rem_auto] items-end gap-2"
              data-testid="supporter-row"
            >
              <Field id={`${base}-supporter-${i}`} label="Supporter">
                <Input
                  id={`${base}-supporter-${i}`}
                  value={s.source}
                  autoComplete="organization"
                  onChange={(e) => setSupporter(i, { source: e.target.value })}
                />
              </Field>
              <Field id={`${base}-amount-${i}`} label="Amount ($)">
                <Input
                  id={`${base}-amount-${i}`}
                  value={s.amount}
                  inputMode="decimal"
                  autoComplete="off"
                  onChange={(e) => setSupporter(i, { amount: e.target.value })}
                />
              </Field>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-label={`Remove supporter ${i + 1}`}
                onClick={() => onChange({ supporters: value.supporters.filter((_, j) => j !== i) })}
              >
                <Trash2Icon aria-hidden="true" />
              </Button>
            </div>
          ))}
          <div>
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() =>
                onChange({ supporters: [...value.supporters, { source: "", amount: "" }] })
              }
            >
              <PlusIcon aria-hidden="true" />
              Add supporter
            </Button>
          </div>
        </fieldset>
      ) : null}
      <Field id={`${base}-moc-board`} label="MOC certifying board">
        <NativeSelect
          id={`${base}-moc-board`}
          value={value.mocBoard}
          onChange={(e) => onChange({ mocBoard: e.target.value })}
        >
          <option value="">No MOC</option>
          {CERTIFYING_BOARDS.map((b) => (
            <option key={b} value={b}>
              {b}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {value.mocBoard ? (
        <Field id={`${base}-moc-type`} label="MOC credit type">
          <Input
            id={`${base}-moc-type`}
            value={value.mocCreditType}
            placeholder="e.g. Medical Knowledge"
            autoComplete="off"
            onChange={(e) => onChange({ mocCreditType: e.target.value })}
          />
        </Field>
      ) : null}
    </>
  );
}
