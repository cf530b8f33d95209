import {
  type Activity,
  COMPLETION_STEP_LABELS,
  type Course,
  creditAmountText,
  type EvaluationItem,
  FORM_STEP_KEYS,
  type FormStepKey,
} from "@contract";
import { type QueryKey, type UseQueryOptions, useQuery } from "@tanstack/react-query";
import {
  BarChart3Icon,
  CircleCheckIcon,
  CircleIcon,
  ClipboardListIcon,
  DownloadIcon,
  PencilIcon,
  SlidersHorizontalIcon,
} from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Badge } from "../../../../components/ui/badge";
import { Button } from "../../../../components/ui/button";
import {
  Card,
  CardContent,
  CardFooter,
  CardHeader,
  CardTitle,
} from "../../../../components/ui/card";
import { LoadError } from "../../../../components/ui/load-error";
import { Skeleton } from "../../../../components/ui/skeleton";
import { getErrorMessage } from "../../../../lib/api-client";
import { useDates } from "../../../../lib/dates";
import { plural } from "../../../../lib/format";
import { cn } from "../../../../lib/utils";
import { creditReportCsvUrl } from "../../api/admin-credit-report";
import { formStepAnswersCsvUrl } from "../../api/admin-form-step-answers";
import { useActivity } from "../../api/get-activity";
import { getEvaluationQueryOptions } from "../../api/get-evaluation";
import { getFormStepQueryOptions } from "../../api/get-form-step";
import { ActivityDialog } from "./activity-dialog";
import { CreditSettingsDialog } from "./credit-settings-dialog";
import { CreditTypesDialog } from "./credit-types-dialog";
import { EvaluationFormDialog } from "./evaluation-form-dialog";
import { FormStepDialog } from "./form-step-dialog";
import { signatureUrl } from "./signature-field";

/** Where the evaluation results of a course live. */
const evaluationResultsPath = (courseId: string) =>
  `/admin/courses/${encodeURIComponent(courseId)}/evaluation-results`;

/**
 * The course page's accreditation area: what learners read before starting, the steps to
 * credit, what certificates print, the evaluation and each form step, each with its editor.
 */
export function CourseAccreditation({ course }: { course: Course }) {
  const activity = useActivity(course.id);
  return (
    <section aria-labelledby="accreditation-title">
      <Card>
        <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 pb-4">
          <div className="grid min-w-0 gap-1">
            <CardTitle id="accreditation-title" className="flex items-center gap-2">
              Accreditation
              {activity.data?.courseExpired ? <Badge variant="warning">Expired</Badge> : null}
            </CardTitle>
            <p className="text-sm text-zinc-600">
              What learners read before starting, the steps to claim credit, and what the
              certificate prints.
            </p>
          </div>
        </CardHeader>
        <CardContent className="pt-0">
          {activity.isPending ? (
            <div className="grid gap-4" aria-hidden="true">
              <Skeleton className="h-32 rounded-xl" />
              <Skeleton className="h-32 rounded-xl" />
            </div>
          ) : activity.isError ? (
            <LoadError
              message={
                getErrorMessage(activity.error) ?? "The accreditation settings could not be loaded."
              }
              onRetry={() => void activity.refetch()}
            />
          ) : (
            <div className="grid grid-cols-1 gap-4">
              <ActivitySummary activity={activity.data} />
              <CreditSummary activity={activity.data} />
              <EvaluationSummary activity={activity.data} />
              {FORM_STEP_KEYS.map((step) => (
                <FormStepSummary key={step} courseId={course.id} step={step} />
              ))}
            </div>
          )}
        </CardContent>
        <CardFooter>
          <Button asChild variant="outline" size="sm">
            <Link to={evaluationResultsPath(course.id)}>
              <BarChart3Icon aria-hidden="true" />
              Evaluation results
            </Link>
          </Button>
          <Button asChild variant="outline" size="sm">
            <a href={creditReportCsvUrl(course.id)} download data-testid="credit-report-download">
              <DownloadIcon aria-hidden="true" />
              Download credit report
            </a>
          </Button>
        </CardFooter>
      </Card>
    </section>
  );
}

/** One part of the summary: a heading, its editor's button, and what it holds. */
function SummaryPart({
  id,
  title,
  action,
  children,
}: {
  id: string;
  title: string;
  action: ReactNode;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className="grid min-w-0 gap-3 rounded-xl border border-zinc-200 p-4"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={id} className="text-sm font-semibold text-zinc-950">
          {title}
        </h3>
        {action}
      </div>
      {children}
    </section>
  );
}

function Rows({ rows, testId }: { rows: [string, ReactNode][]; testId: string }) {
  return (
    <dl data-testid={testId} className="grid grid-cols-1 gap-x-8 gap-y-2.5 text-sm sm:grid-cols-2">
      {rows.map(([label, value]) => (
        <div key={label} className="flex min-w-0 items-baseline justify-between gap-4">
          <dt className="shrink-0 text-zinc-600">{label}</dt>
          <dd className="min-w-0 text-right font-medium break-words text-zinc-900 tabular-nums">
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

const unset = <span className="font-normal text-zinc-500">Not set</span>;

function ActivitySummary({ activity }: { activity: Activity }) {
  const dates = useDates();
  const rows: [string, ReactNode][] = [
    ["Objectives", activity.objectives.length || unset],
    ["Faculty and planners", activity.faculty.length || unset],
    ["Release date", activity.releaseDate ? dates.day(activity.releaseDate) : unset],
    ["Review date", activity.reviewDate ? dates.day(activity.reviewDate) : unset],
    ["Expiration date", activity.expirationDate ? dates.day(activity.expirationDate) : unset],
    [
      "Enrollment valid for",
      activity.enrollmentValidDays === null
        ? "No limit"
        : plural(activity.enrollmentValidDays, "day"),
    ],
    ["Records kept", plural(activity.retentionYears, "year")],
  ];
  const steps: [string, boolean][] = [
    ["Acknowledgement", activity.acknowledgementRequired],
    ["Evaluation", activity.evaluationRequired],
  ];
  return (
    <SummaryPart
      id="accreditation-activity"
      title="About this activity"
      action={
        <ActivityDialog
          activity={activity}
          trigger={
            <Button variant="outline" size="sm">
              <PencilIcon aria-hidden="true" />
              Edit activity
            </Button>
          }
        />
      }
    >
      <Rows rows={rows} testId="activity-summary" />
      <div className="grid gap-2">
        <p className="text-sm text-zinc-600">Steps learners complete</p>
        <ul className="flex flex-wrap gap-2" aria-label="Steps learners complete">
          {steps.map(([label, required]) => (
            <StepPill key={label} label={label} required={required} />
          ))}
          {FORM_STEP_KEYS.map((step) => (
            <FormStepPill key={step} courseId={activity.courseId} step={step} />
          ))}
          <StepPill label="Attestation" required={activity.attestationRequired} />
        </ul>
      </div>
    </SummaryPart>
  );
}

/** One step of completion in the order learners meet it, required or off. */
function StepPill({ label, required }: { label: string; required: boolean }) {
  return (
    <li
      data-required={required}
      className={cn(
        "flex items-center gap-1.5 rounded-full border px-2.5 py-1 text-xs font-medium",
        required
          ? "border-indigo-200 bg-indigo-50 text-indigo-800"
          : "border-zinc-200 bg-zinc-50 text-zinc-600",
      )}
    >
      {required ? (
        <CircleCheckIcon className="size-3.5" aria-hidden="true" />
      ) : (
        <CircleIcon className="size-3.5" aria-hidden="true" />
      )}
      {label}: {required ? "required" : "off"}
    </li>
  );
}

/**
 * A form step joins the steps once the course asks for it: until then it is an extra the
 * course has not taken up, and its own part below says how to turn it on.
 */
function FormStepPill({ courseId, step }: { courseId: string; step: FormStepKey }) {
  const form = useQuery(getFormStepQueryOptions(courseId, step));
  if (!form.data?.required) return null;
  return <StepPill label={COMPLETION_STEP_LABELS[step]} required />;
}

/**
 * The course's credit, set here only: the types it offers with their bodies and provider
 * numbers, and what its certificates print beside them (sponsor, fields of study, official).
 */
function CreditSummary({ activity }: { activity: Activity }) {
  const credit = activity.credit;
  const rows: [string, ReactNode][] = [
    ["Sponsor", credit.sponsorName || unset],
    ["Delivery method", credit.deliveryMethod || unset],
  ];
  const official = [credit.officialName, credit.officialTitle].filter(Boolean).join(", ");
  return (
    <SummaryPart
      id="accreditation-credit"
      title="Credit"
      action={
        <div className="flex flex-wrap gap-2">
          <CreditTypesDialog
            courseId={activity.courseId}
            types={activity.creditTypes}
            trigger={
              <Button variant="outline" size="sm">
                <PencilIcon aria-hidden="true" />
                Edit credit types
              </Button>
            }
          />
          <CreditSettingsDialog
            activity={activity}
            trigger={
              <Button variant="outline" size="sm">
                <SlidersHorizontalIcon aria-hidden="true" />
                Certificate details
              </Button>
            }
          />
        </div>
      }
    >
      {activity.creditTypes.length ? (
        <ul className="grid gap-2" data-testid="credit-types-summary" aria-label="Credit types">
          {activity.creditTypes.map((t) => (
            <li
              key={t.id}
              data-testid="credit-type-summary"
              className="grid gap-0.5 rounded-lg border border-zinc-100 bg-zinc-50/60 px-3 py-2 text-sm"
            >
              <span className="font-medium break-words text-zinc-950">
                Up to {creditAmountText(t.amount, t.name, t.singularName)}
              </span>
              <span className="break-words text-zinc-600">
                {[
                  t.accreditingBody
                    ? `${t.accreditingBody}${t.providerNumber ? ` · Provider no. ${t.providerNumber}` : ""}`
                    : "No accrediting body",
                  t.claimStep === null ? "Claimed whole" : `Claimed in steps of ${t.claimStep}`,
                  t.licenceRequired ? "Licence required" : null,
                ]
                  .filter(Boolean)
                  .join(" · ")}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-zinc-600" data-testid="credit-types-summary">
          This course offers no credit. Add the credit types it offers.
        </p>
      )}
      <Rows rows={rows} testId="credit-summary" />
      <div className="grid grid-cols-1 gap-4 text-sm sm:grid-cols-2 sm:gap-8">
        <div className="grid content-start gap-1.5">
          <p className="text-zinc-600">Fields of study</p>
          {credit.fieldsOfStudy.length ? (
            <ul className="grid gap-1" data-testid="fields-of-study">
              {credit.fieldsOfStudy.map((f) => (
                <li key={f.field} className="flex justify-between gap-4">
                  <span className="min-w-0 break-words text-zinc-900">{f.field}</span>
                  <span className="font-medium text-zinc-900 tabular-nums">
                    {plural(f.credits, "credit")}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-zinc-500">None yet</p>
          )}
        </div>
        <div className="grid content-start gap-1.5">
          <p className="text-zinc-600">Responsible official</p>
          <p className="font-medium break-words text-zinc-900">{official || unset}</p>
          {credit.signatureId ? (
            <div className="flex h-14 w-40 items-center justify-center rounded-lg border border-zinc-200 bg-white p-1.5">
              <img
                src={signatureUrl(credit.signatureId)}
                alt={credit.officialName ? `Signature of ${credit.officialName}` : "Signature"}
                className="max-h-full max-w-full object-contain"
              />
            </div>
          ) : (
            <p className="text-zinc-500">No signature</p>
          )}
        </div>
      </div>
    </SummaryPart>
  );
}

function EvaluationSummary({ activity }: { activity: Activity }) {
  return (
    <FormSummary
      id="accreditation-evaluation"
      label="Evaluation"
      testId="evaluation-summary"
      formQueryOptions={getEvaluationQueryOptions(activity.courseId)}
      isAsked={() => activity.evaluationRequired}
      offHint="turn it on in Edit activity"
      action={
        <EvaluationFormDialog
          courseId={activity.courseId}
          trigger={
            <Button variant="outline" size="sm">
              <ClipboardListIcon aria-hidden="true" />
              Edit evaluation
            </Button>
          }
        />
      }
    />
  );
}

/** A form step of the contract: whether the course asks for it, its items, every answer. */
function FormStepSummary({ courseId, step }: { courseId: string; step: FormStepKey }) {
  const label = COMPLETION_STEP_LABELS[step];
  const name = label.toLowerCase();
  return (
    <FormSummary
      id={`accreditation-${step}`}
      label={label}
      testId={`${step}-summary`}
      formQueryOptions={getFormStepQueryOptions(courseId, step)}
      isAsked={(form) => form.required}
      offHint={`turn it on in Edit ${name}`}
      action={
        <FormStepDialog
          courseId={courseId}
          step={step}
          trigger={
            <Button variant="outline" size="sm">
              <ClipboardListIcon aria-hidden="true" />
              Edit {name}
            </Button>
          }
        />
      }
    >
      <Button asChild variant="outline" size="sm" className="w-fit">
        <a
          href={formStepAnswersCsvUrl(courseId, step)}
          download
          data-testid={`${step}-answers-download`}
        >
          <DownloadIcon aria-hidden="true" />
          Download answers
        </a>
      </Button>
    </FormSummary>
  );
}

/** A form learners answer: its items by kind, and whether the course asks for it. */
function FormSummary<F extends { items: EvaluationItem[] }, K extends QueryKey>({
  id,
  label,
  testId,
  formQueryOptions,
  isAsked,
  offHint,
  action,
  children,
}: {
  id: string;
  label: string;
  testId: string;
  formQueryOptions: UseQueryOptions<F, Error, F, K>;
  isAsked: (form: F) => boolean;
  /** Where the administrator turns the form on. */
  offHint: string;
  action: ReactNode;
  /** What the form offers besides its editor (its answers). */
  children?: ReactNode;
}) {
  const form = useQuery(formQueryOptions);
  const likert = form.data?.items.filter((i) => i.kind === "likert").length ?? 0;
  const text = (form.data?.items.length ?? 0) - likert;
  return (
    <SummaryPart id={id} title={label} action={action}>
      {form.isPending ? (
        <Skeleton className="h-5 w-48" />
      ) : form.isError ? (
        <LoadError
          message={getErrorMessage(form.error) ?? `The ${label.toLowerCase()} could not be loaded.`}
          onRetry={() => void form.refetch()}
        />
      ) : (
        <p className="text-sm text-zinc-700" data-testid={testId}>
          {plural(likert, "rating item")} and {plural(text, "text item")};{" "}
          {isAsked(form.data)
            ? "learners answer it before the certificate."
            : `not asked of learners (${offHint}).`}
        </p>
      )}
      {children}
    </SummaryPart>
  );
}
