import {
  ACTIVITY_ID_LABELS,
  CE_BROKER_PROVIDER_LABEL,
  type Course,
  type CourseReporting,
  courseReportingBodySchema,
  creditAmountText,
  EMPTY_ACTIVITY_DETAILS,
  missingActivityIds,
  REGULATOR_NAMES,
  REGULATORS,
  type Regulator,
} from "@contract";
import { FileOutputIcon } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "../../../components/ui/card";
import { Checkbox } from "../../../components/ui/checkbox";
import { Field } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { Label } from "../../../components/ui/label";
import { LoadError } from "../../../components/ui/load-error";
import { Skeleton } from "../../../components/ui/skeleton";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage, loadFailureHint } from "../../../lib/api-client";
import { useCourseReporting } from "../api/get-course-reporting";
import { useSaveCourseReporting } from "../api/save-course-reporting";
import {
  CeBrokerDetailsFields,
  CpeMonitorDetailsFields,
  type DetailsDraft,
  detailsBodyOf,
  detailsDraftOf,
  ParsDetailsFields,
  ProviderCodeField,
} from "./activity-details-fields";
import {
  type ParsActivityDraft,
  ParsActivityFields,
  parsBodyOf,
  parsDraftOf,
} from "./pars-activity-fields";
import { ParsActivityFileButton } from "./pars-activity-file-button";

const PLACEHOLDERS: Record<Regulator, string> = {
  pars: "e.g. 201234567",
  ce_broker: "e.g. 20-845123",
  cpe_monitor: "e.g. 0197-0000-26-105-H01-P",
};

type Draft = Record<
  string,
  Record<
    Regulator,
    {
      on: boolean;
      activityId: string;
      providerId: string;
      details: DetailsDraft;
    } & ParsActivityDraft
  >
>;

const draftOf = (reporting: CourseReporting): Draft =>
  Object.fromEntries(
    reporting.types.map((t) => [
      t.creditTypeId,
      Object.fromEntries(
        REGULATORS.map((regulator) => {
          const found = t.regulators.find((r) => r.regulator === regulator);
          return [
            regulator,
            {
              on: Boolean(found),
              activityId: found?.activityId ?? "",
              providerId: found?.providerId ?? "",
              details: detailsDraftOf(found?.details ?? EMPTY_ACTIVITY_DETAILS),
              ...parsDraftOf(
                found ?? { activityFormat: "", providership: "", commercialSupport: null },
              ),
            },
          ];
        }),
      ) as Draft[string],
    ]),
  );

/** Where the reporting page opens on one course. */
const reportingPathOf = (courseId: string) =>
  `/admin/reporting?courseId=${encodeURIComponent(courseId)}`;

/**
 * The course page's regulator reporting: for each credit type, the regulators it reports to
 * with their identifier of the activity. Publishing is refused while one is missing.
 */
export function CourseReportingCard({ course }: { course: Course }) {
  const query = useCourseReporting(course.id);
  return (
    <section aria-labelledby="course-reporting-title">
      <Card>
        <CardHeader className="pb-4">
          <CardTitle id="course-reporting-title">Regulator reporting</CardTitle>
          <p className="text-sm text-zinc-600">
            Report each learner's completion to the system their licensing board reads. Learners
            claiming a reported type give the identifiers it needs.
          </p>
        </CardHeader>
        {query.isPending ? (
          <CardContent aria-hidden="true">
            <Skeleton className="h-24 w-full rounded-xl" />
          </CardContent>
        ) : query.isError ? (
          <CardContent>
            <LoadError
              message={loadFailureHint(query.error, "We couldn't load the reporting settings.")}
              onRetry={() => void query.refetch()}
            />
          </CardContent>
        ) : query.data.types.length === 0 ? (
          <CardContent>
            <p className="text-sm text-zinc-600">
              This course offers no credit. Add its credit types first; each can then report to its
              regulator.
            </p>
          </CardContent>
        ) : (
          <ReportingForm key={JSON.stringify(query.data)} reporting={query.data} />
        )}
      </Card>
    </section>
  );
}

function ReportingForm({ reporting }: { reporting: CourseReporting }) {
  const save = useSaveCourseReporting();
  const [draft, setDraft] = useState<Draft>(() => draftOf(reporting));
  // As saved: the activity file is written from the saved settings.
  const reportsToPars = reporting.types.some((t) =>
    t.regulators.some((r) => r.regulator === "pars"),
  );
  const [error, setError] = useState<string | null>(null);
  const set = (typeId: string, regulator: Regulator, change: Partial<Draft[string][Regulator]>) =>
    setDraft((d) => ({
      ...d,
      [typeId]: { ...d[typeId]!, [regulator]: { ...d[typeId]![regulator], ...change } },
    }));

  const setDetails = (typeId: string, regulator: Regulator, change: Partial<DetailsDraft>) =>
    setDraft((d) => {
      const current = d[typeId]![regulator];
      return {
        ...d,
        [typeId]: {
          ...d[typeId]!,
          [regulator]: { ...current, details: { ...current.details, ...change } },
        },
      };
    });

  async function onSave() {
    const body = {
      types: reporting.types.map((t) => ({
        creditTypeId: t.creditTypeId,
        regulators: REGULATORS.filter((r) => draft[t.creditTypeId]![r].on).map((regulator) => ({
          regulator,
          activityId: draft[t.creditTypeId]![regulator].activityId,
          providerId: regulator === "ce_broker" ? draft[t.creditTypeId]![regulator].providerId : "",
          ...(regulator === "pars" ? parsBodyOf(draft[t.creditTypeId]![regulator]) : {}),
          details: detailsBodyOf(
            regulator,
            draft[t.creditTypeId]![regulator].details,
            draft[t.creditTypeId]![regulator],
          ),
        })),
      })),
    };
    const checked = courseReportingBodySchema.safeParse(body);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? "Check the identifiers.");
      return;
    }
    setError(null);
    try {
      await save.mutateAsync({ courseId: reporting.courseId, body });
      toast({ title: "Reporting saved" });
    } catch (err) {
      setError(getErrorMessage(err) ?? "The reporting settings could not be saved.");
    }
  }

  return (
    <>
      <CardContent className="grid gap-4">
        {reporting.types.map((t) => (
          <fieldset
            key={t.creditTypeId}
            className="grid gap-3 rounded-xl border border-zinc-200 p-4"
            data-testid="reporting-type"
          >
            <legend className="px-1 text-sm font-medium text-zinc-900">
              {creditAmountText(t.amount, t.name)}
            </legend>
            {REGULATORS.map((regulator) => {
              const value = draft[t.creditTypeId]![regulator];
              const base = `reporting-${t.creditTypeId}-${regulator}`;
              const missing = value.on ? missingActivityIds({ regulator, ...value }) : [];
              return (
                <div key={regulator} className="grid gap-3">
                  <div className="flex flex-wrap items-center gap-3">
                    <Checkbox
                      id={base}
                      checked={value.on}
                      onCheckedChange={(checked) =>
                        set(t.creditTypeId, regulator, { on: checked === true })
                      }
                    />
                    <Label htmlFor={base}>Report to {REGULATOR_NAMES[regulator]}</Label>
                    {missing.length ? (
                      <Badge variant="warning">Needs its {missing.join(" and ")}</Badge>
                    ) : null}
                  </div>
                  {value.on ? (
                    <div className="grid gap-3 sm:grid-cols-2 sm:pl-7">
                      <Field id={`${base}-activity`} label={ACTIVITY_ID_LABELS[regulator]}>
                        <Input
                          id={`${base}-activity`}
                          value={value.activityId}
                          placeholder={PLACEHOLDERS[regulator]}
                          autoComplete="off"
                          onChange={(e) =>
                            set(t.creditTypeId, regulator, { activityId: e.target.value })
                          }
                        />
                      </Field>
                      {regulator !== "cpe_monitor" ? (
                        <ProviderCodeField
                          base={base}
                          regulator={regulator}
                          value={value.details}
                          onChange={(change) => setDetails(t.creditTypeId, regulator, change)}
                        />
                      ) : null}
                      {regulator === "ce_broker" ? (
                        <Field id={`${base}-provider`} label={CE_BROKER_PROVIDER_LABEL}>
                          <Input
                            id={`${base}-provider`}
                            value={value.providerId}
                            placeholder="e.g. 50-1234"
                            autoComplete="off"
                            onChange={(e) =>
                              set(t.creditTypeId, regulator, { providerId: e.target.value })
                            }
                          />
                        </Field>
                      ) : null}
                      {regulator === "pars" ? (
                        <>
                          <ParsActivityFields
                            base={base}
                            value={value}
                            onChange={(change) => set(t.creditTypeId, regulator, change)}
                          />
                          <ParsDetailsFields
                            base={base}
                            value={value.details}
                            activityFormat={value.activityFormat}
                            commercialSupport={value.commercialSupport}
                            onChange={(change) => setDetails(t.creditTypeId, regulator, change)}
                          />
                        </>
                      ) : regulator === "ce_broker" ? (
                        <CeBrokerDetailsFields
                          base={base}
                          value={value.details}
                          onChange={(change) => setDetails(t.creditTypeId, regulator, change)}
                        />
                      ) : (
                        <CpeMonitorDetailsFields
                          base={base}
                          value={value.details}
                          onChange={(change) => setDetails(t.creditTypeId, regulator, change)}
                        />
                      )}
                    </div>
                  ) : null}
                </div>
              );
            })}
          </fieldset>
        ))}
        {error ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {error}
          </p>
        ) : null}
      </CardContent>
      <CardFooter className="flex-wrap gap-3 border-t border-zinc-100 pt-4">
        <Button onClick={() => void onSave()} disabled={save.isPending}>
          {save.isPending ? <Spinner /> : null}
          Save reporting
        </Button>
        <Button asChild variant="outline">
          <Link to={reportingPathOf(reporting.courseId)}>
            <FileOutputIcon aria-hidden="true" />
            Report files
          </Link>
        </Button>
      </CardFooter>
      {reportsToPars ? (
        <CardContent className="border-t border-zinc-100 pt-4">
          <ParsActivityFileButton courseId={reporting.courseId} />
        </CardContent>
      ) : null}
    </>
  );
}
