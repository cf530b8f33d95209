import {
  firstLicence,
  type IdentifierNeed,
  type Identifiers,
  type IdentifiersBody,
  isNeedMet,
  type Regulator,
  regulatorNames,
} from "@contract";
import { CircleAlertIcon, CircleCheckIcon, PencilIcon } from "lucide-react";
import type { FieldErrors, UseFormReturn } from "react-hook-form";
import { Button } from "../../../../components/ui/button";
import {
  IdentifierFields,
  type IdentifierGroup,
  type IdentifiersForm,
  monthName,
} from "./identifier-fields";

/** The inputs that give what a need asks for, in the order they show. */
const GROUP_ORDER: readonly IdentifierGroup[] = [
  "firstLicence",
  "npn",
  "board",
  "name",
  "birth",
  "profession",
  "nabpEpid",
];
const GROUPS_OF_NEED: Record<IdentifierNeed, IdentifierGroup[]> = {
  licence: ["firstLicence", "npn"],
  stateLicence: ["firstLicence"],
  licenceOrBoard: ["firstLicence", "board"],
  name: ["name"],
  birth: ["birth"],
  profession: ["profession"],
  nabpEpid: ["nabpEpid"],
};

/**
 * The inputs the attestation shows: those of the needs the record does not meet, or of every
 * need while the learner changes them. An NPN stands for a licence only where no regulator
 * asks for a state licence.
 */
export function askedGroups(
  needs: readonly IdentifierNeed[],
  saved: Identifiers,
  changing: boolean,
): IdentifierGroup[] {
  const asked = new Set(
    needs.filter((n) => changing || !isNeedMet(n, saved)).flatMap((n) => GROUPS_OF_NEED[n]),
  );
  if (needs.includes("stateLicence") || needs.includes("licenceOrBoard")) asked.delete("npn");
  return GROUP_ORDER.filter((g) => asked.has(g));
}

type Required = { field: string; message: string };
const REQUIRED: Partial<Record<IdentifierNeed, Required[]>> = {
  stateLicence: [
    { field: "licences.0.licenceNumber", message: "Enter your licence number and its state" },
  ],
  licenceOrBoard: [
    {
      field: "licences.0.licenceNumber",
      message: "Enter a state licence, or your certifying board and board ID",
    },
  ],
  name: [
    { field: "firstName", message: "Enter your first name" },
    { field: "lastName", message: "Enter your last name" },
  ],
  birth: [{ field: "birthMonth", message: "Choose your month and day of birth" }],
  profession: [{ field: "profession", message: "Enter your profession" }],
  nabpEpid: [{ field: "nabpEpid", message: "Enter your NABP e-Profile ID" }],
};

/**
 * What the claim's regulators need and the record would still lack once the attestation saves
 * what was typed: the server refuses such a claim, so the page says it first. The licence a
 * credit type requires may follow later (the certificate waits for it).
 */
export function missingForClaim(needs: readonly IdentifierNeed[], saved: Identifiers) {
  return (patch: IdentifiersBody): FieldErrors<IdentifiersForm> => {
    const after: Identifiers = { ...saved, ...patch };
    const errors: Record<string, unknown> = {};
    for (const need of needs) {
      if (isNeedMet(need, after)) continue;
      for (const { field, message } of REQUIRED[need] ?? []) {
        const [name, index, key] = field.split(".") as [string, string?, string?];
        if (name === "firstName" && after.firstName) continue;
        if (name === "lastName" && after.lastName) continue;
        const error = { type: "required", message };
        if (index !== undefined && key) errors[name] = [{ [key]: error }];
        else errors[name] = error;
      }
    }
    return errors as FieldErrors<IdentifiersForm>;
  };
}

/** The identifiers a claim reads back to the learner, as they will be sent and printed. */
function summaryOf(
  needs: readonly IdentifierNeed[],
  regulators: readonly Regulator[],
  ids: Identifiers,
): [string, string][] {
  const rows: [string, string][] = [];
  const licence = firstLicence(ids);
  if (needs.some((n) => n === "licence" || n === "stateLicence" || n === "licenceOrBoard")) {
    if (licence?.licenceNumber) {
      const what = [licence.licenceType, licence.licenceNumber].filter(Boolean).join(" ");
      rows.push(["Licence", licence.licenceState ? `${what} (${licence.licenceState})` : what]);
    } else if (ids.npn) {
      rows.push(["NPN", ids.npn]);
    }
    if (needs.includes("licenceOrBoard") && ids.boardId) {
      rows.push(["Certifying board", `${ids.certifyingBoard} ${ids.boardId}`]);
    }
  }
  if (needs.includes("name")) rows.push(["Name", `${ids.firstName} ${ids.lastName}`.trim()]);
  if (needs.includes("birth") && ids.birthMonth !== null && ids.birthDay !== null) {
    rows.push(["Month and day of birth", `${monthName(ids.birthMonth)} ${ids.birthDay}`]);
  }
  if (needs.includes("profession") && ids.profession) rows.push(["Profession", ids.profession]);
  if (needs.includes("nabpEpid") && ids.nabpEpid) rows.push(["NABP e-Profile ID", ids.nabpEpid]);
  // PARS takes the NPI when given, though it asks for none.
  if (needs.length && regulators.includes("pars") && ids.npi) rows.push(["NPI", ids.npi]);
  return rows.filter(([, value]) => value);
}

/**
 * Before the learner attests, the professional details the claimed credit needs: its
 * regulators' and a licence a credit type requires. What the profile holds is read back; what
 * it lacks is asked for here, and saved into the profile with the attestation, so it is never
 * asked again. Renders nothing when the claim needs nothing.
 */
export function AttestationIdentifiers({
  form,
  saved,
  needs,
  groups,
  regulators,
  licenceTypes,
  changing,
  onChange,
}: {
  form: UseFormReturn<IdentifiersForm>;
  saved: Identifiers;
  needs: readonly IdentifierNeed[];
  /** The inputs shown (askedGroups). */
  groups: readonly IdentifierGroup[];
  /** The regulators the claim is reported to. */
  regulators: readonly Regulator[];
  /** The names of the claimed types that require a licence. */
  licenceTypes: readonly string[];
  changing: boolean;
  onChange: () => void;
}) {
  if (!needs.length) return null;
  const why = [
    regulators.length ? `Your credit is reported to ${regulatorNames(regulators)}` : "",
    licenceTypes.length ? `claiming ${licenceTypes.join(" or ")} asks for your licence` : "",
  ].filter(Boolean);
  const sentence = why.join(", and ");
  const missing = needs.filter((n) => !isNeedMet(n, saved));
  const summary = summaryOf(
    needs.filter((n) => !changing && isNeedMet(n, saved)),
    regulators,
    saved,
  );
  const licenceLater = missing.includes("licence");

  return (
    <section
      aria-labelledby="attestation-identifiers-title"
      data-testid="attestation-identifiers"
      className="grid gap-4 rounded-xl border border-zinc-200 p-4 sm:p-5"
    >
      <div className="grid gap-1">
        <h2 id="attestation-identifiers-title" className="text-base font-semibold text-zinc-950">
          Your professional details
        </h2>
        <p className="text-sm text-zinc-600">
          {sentence.charAt(0).toUpperCase() + sentence.slice(1)}.{" "}
          {missing.length || changing
            ? "What you give here is saved to your profile when you attest, so you are not asked again."
            : "They come from your profile; a change made here is saved there too."}
        </p>
      </div>
      {missing.length && !changing ? (
        <p
          role="status"
          className="flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950"
        >
          <CircleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            Your profile lacks what is asked below.
            {licenceLater
              ? " Your certificate is issued once your licence is on file; you may also add it later."
              : ""}
          </span>
        </p>
      ) : !missing.length ? (
        <p
          role="status"
          className="flex items-start gap-2 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900"
        >
          <CircleCheckIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>Your profile holds everything this credit needs.</span>
        </p>
      ) : null}
      {summary.length ? (
        <dl className="grid gap-3 sm:grid-cols-2" data-testid="attestation-identifiers-summary">
          {summary.map(([label, value]) => (
            <div key={label} className="grid min-w-0 gap-0.5">
              <dt className="text-xs font-medium text-zinc-600">{label}</dt>
              <dd className="text-sm break-words text-zinc-900">{value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {groups.length ? <IdentifierFields form={form} groups={groups} idPrefix="attest" /> : null}
      {summary.length && !changing ? (
        <Button type="button" variant="outline" size="sm" className="w-fit" onClick={onChange}>
          <PencilIcon aria-hidden="true" />
          Change details
        </Button>
      ) : null}
    </section>
  );
}
