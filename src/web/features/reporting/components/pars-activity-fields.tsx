import {
  PARS_ACTIVITY_FORMAT_LABELS,
  PARS_ACTIVITY_FORMATS,
  PROVIDERSHIP_LABELS,
  PROVIDERSHIPS,
} from "@contract";
import { Field } from "../../../components/ui/field";
import { NativeSelect } from "../../../components/ui/native-select";

/** The PARS activity record's settings as the course card edits them ("" until chosen). */
export interface ParsActivityDraft {
  activityFormat: string;
  providership: string;
  commercialSupport: "" | "yes" | "no";
}

export const parsDraftOf = (s: {
  activityFormat: string;
  providership: string;
  commercialSupport: boolean | null;
}): ParsActivityDraft => ({
  activityFormat: s.activityFormat,
  providership: s.providership,
  commercialSupport: s.commercialSupport === null ? "" : s.commercialSupport ? "yes" : "no",
});

/** The draft as the API takes it. */
export const parsBodyOf = (d: ParsActivityDraft) => ({
  activityFormat: d.activityFormat as "" | (typeof PARS_ACTIVITY_FORMATS)[number],
  providership: d.providership as "" | (typeof PROVIDERSHIPS)[number],
  commercialSupport: d.commercialSupport === "" ? null : d.commercialSupport === "yes",
});

/**
 * What the PARS activity record says of the activity besides its ID: its format, direct or
 * joint providership, and whether it received commercial support.
 */
export function ParsActivityFields({
  base,
  value,
  onChange,
}: {
  base: string;
  value: ParsActivityDraft;
  onChange: (change: Partial<ParsActivityDraft>) => void;
}) {
  return (
    <>
      <Field id={`${base}-format`} label="Activity type">
        <NativeSelect
          id={`${base}-format`}
          value={value.activityFormat}
          onChange={(e) => onChange({ activityFormat: e.target.value })}
        >
          <option value="">Choose…</option>
          {PARS_ACTIVITY_FORMATS.map((f) => (
            <option key={f} value={f}>
              {PARS_ACTIVITY_FORMAT_LABELS[f]}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field id={`${base}-providership`} label="Providership">
        <NativeSelect
          id={`${base}-providership`}
          value={value.providership}
          onChange={(e) => onChange({ providership: e.target.value })}
        >
          <option value="">Choose…</option>
          {PROVIDERSHIPS.map((p) => (
            <option key={p} value={p}>
              {PROVIDERSHIP_LABELS[p]}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field id={`${base}-support`} label="Commercial support received">
        <NativeSelect
          id={`${base}-support`}
          value={value.commercialSupport}
          onChange={(e) =>
            onChange({
              commercialSupport: e.target.value as ParsActivityDraft["commercialSupport"],
            })
          }
        >
          <option value="">Choose…</option>
          <option value="no">No</option>
          <option value="yes">Yes</option>
        </NativeSelect>
      </Field>
    </>
  );
}
