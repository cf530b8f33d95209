import { missingRegulatorIds, REGULATOR_NAMES, type Regulator, type RegulatorIds } from "@contract";
import { CircleAlertIcon, CircleCheckIcon, PencilIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/button";
import { LoadError } from "../../../components/ui/load-error";
import { Skeleton } from "../../../components/ui/skeleton";
import { loadFailureHint } from "../../../lib/api-client";
import { useMyRegulatorIds } from "../api/get-my-regulator-ids";
import { RegulatorIdsForm } from "./regulator-ids-form";

const MONTH_NAMES = new Intl.DateTimeFormat("en-US", { month: "long", timeZone: "UTC" });

/** The identifiers a regulator is sent, as the learner reads them back. */
function summaryOf(ids: RegulatorIds, regulators: Regulator[]): [string, string][] {
  const asks = (...names: Regulator[]) => names.some((r) => regulators.includes(r));
  const rows: [string, string][] = [];
  if (asks("pars", "ce_broker")) rows.push(["Name", `${ids.firstName} ${ids.lastName}`.trim()]);
  if (asks("pars", "cpe_monitor") && ids.birthMonth !== null && ids.birthDay !== null) {
    const month = MONTH_NAMES.format(new Date(Date.UTC(2000, ids.birthMonth - 1, 1)));
    rows.push(["Month and day of birth", `${month} ${ids.birthDay}`]);
  }
  if (asks("pars", "ce_broker") && ids.licenceNumber) {
    rows.push(["State licence", `${ids.licenceNumber} (${ids.licenceState})`]);
  }
  if (asks("ce_broker") && ids.profession) rows.push(["Profession", ids.profession]);
  if (asks("pars") && ids.boardId)
    rows.push(["Board ID", `${ids.boardId} (${ids.certifyingBoard})`]);
  if (asks("pars") && ids.npi) rows.push(["NPI", ids.npi]);
  if (asks("cpe_monitor") && ids.nabpEpid) rows.push(["NABP e-Profile ID", ids.nabpEpid]);
  return rows;
}

/**
 * Before the attestation of a course whose credit is reported: the identifiers its regulators
 * need, read back from the profile to check (and change), or asked for when missing. The
 * attestation copies them into the claim. Nothing shows for a course reporting nowhere.
 */
export function RegulatorIdsPanel({ courseId }: { courseId: string }) {
  const query = useMyRegulatorIds(courseId);
  const [editing, setEditing] = useState(false);
  if (query.isPending) {
    return <Skeleton className="h-40 w-full rounded-2xl" aria-hidden="true" />;
  }
  if (query.isError) {
    return (
      <LoadError
        message={loadFailureHint(query.error, "We couldn't load your reporting details.")}
        onRetry={() => void query.refetch()}
      />
    );
  }
  const regulators: Regulator[] = (query.data.course ?? []).map((c) => c.regulator);
  if (!regulators.length) return null;
  const { ids } = query.data;
  const missing = regulators.flatMap((regulator) => {
    const list = missingRegulatorIds(regulator, ids);
    return list.length ? [{ regulator, list }] : [];
  });
  const names = regulators.map((r) => REGULATOR_NAMES[r]).join(" and ");
  const showForm = editing || missing.length > 0;

  return (
    <section
      aria-labelledby="regulator-ids-panel-title"
      data-testid="regulator-ids-panel"
      className="grid gap-4 rounded-2xl border border-zinc-200 bg-white p-5 shadow-xs shadow-zinc-950/5 sm:p-6"
    >
      <div className="grid gap-1">
        <h2 id="regulator-ids-panel-title" className="text-base font-semibold text-zinc-950">
          Reported to {names}
        </h2>
        <p className="text-sm text-zinc-600">
          Your completion is reported to the system your licensing board reads. Your claim keeps
          these details as they are when you attest.
        </p>
      </div>
      {missing.length ? (
        <p
          role="status"
          className="flex items-start gap-2 rounded-xl border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <CircleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            {missing
              .map((m) => `${REGULATOR_NAMES[m.regulator]} needs your ${m.list.join(", ")}.`)
              .join(" ")}
          </span>
        </p>
      ) : (
        <p
          role="status"
          className="flex items-start gap-2 rounded-xl border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900"
        >
          <CircleCheckIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>Your details are complete for {names}.</span>
        </p>
      )}
      {showForm ? (
        <RegulatorIdsForm
          ids={ids}
          regulators={regulators}
          submitLabel="Save details"
          onSaved={() => setEditing(false)}
        />
      ) : (
        <div className="grid gap-4">
          <dl className="grid gap-3 sm:grid-cols-2" data-testid="regulator-ids-summary">
            {summaryOf(ids, regulators).map(([label, value]) => (
              <div key={label} className="grid min-w-0 gap-0.5">
                <dt className="text-xs font-medium text-zinc-600">{label}</dt>
                <dd className="break-words text-sm text-zinc-900">{value}</dd>
              </div>
            ))}
          </dl>
          <Button variant="outline" size="sm" className="w-fit" onClick={() => setEditing(true)}>
            <PencilIcon aria-hidden="true" />
            Change details
          </Button>
        </div>
      )}
    </section>
  );
}
