import {
  CPE_MONITOR_STATUS_LABELS,
  type CpeMonitorSubmission,
  creditAmountText,
  REPORT_CLAIM_STATUS_LABELS,
  type Regulator,
  type ReportClaim,
} from "@contract";
import { Badge } from "../../../components/ui/badge";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "../../../components/ui/card";
import { LoadError } from "../../../components/ui/load-error";
import { Skeleton } from "../../../components/ui/skeleton";
import { loadFailureHint } from "../../../lib/api-client";
import { useDates } from "../../../lib/dates";
import { plural } from "../../../lib/format";
import { useReportClaims } from "../api/get-report-claims";

const STATUS_BADGES: Record<ReportClaim["status"], "success" | "warning" | "secondary"> = {
  reported: "success",
  changed: "warning",
  not_reported: "secondary",
};

/**
 * Every completed claim reporting to the regulator (of one course) and where it stands, with
 * the learner's consent to the reporting; those waiting past the deadline first.
 */
export function ReportClaimsCard({
  regulator,
  courseId,
  deadlineDays,
}: {
  regulator: Regulator;
  courseId?: string;
  deadlineDays: number;
}) {
  const query = useReportClaims(regulator, courseId);
  const claims = query.data ?? [];
  // Those waiting past the deadline first, then the oldest waiting, then the reported.
  const ordered = [...claims].sort(
    (a, b) =>
      Number(b.overdue) - Number(a.overdue) ||
      (b.waitingDays ?? -1) - (a.waitingDays ?? -1) ||
      b.completedOn.localeCompare(a.completedOn),
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base" id={`claims-${regulator}`}>
          Claims
        </CardTitle>
        <CardDescription>
          Each completed claim and where it stands. A claim waiting more than{" "}
          {plural(deadlineDays, "day")} after completion is overdue.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <Skeleton className="h-20 w-full rounded-xl" aria-hidden="true" />
        ) : query.isError ? (
          <LoadError
            message={loadFailureHint(query.error, "We couldn't load the claims.")}
            onRetry={() => void query.refetch()}
          />
        ) : ordered.length === 0 ? (
          <p className="text-sm text-zinc-600">No completed claim yet.</p>
        ) : (
          <ul aria-labelledby={`claims-${regulator}`} className="divide-y divide-zinc-100">
            {ordered.map((claim) => (
              <ClaimItem key={claim.key} claim={claim} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function ClaimItem({ claim }: { claim: ReportClaim }) {
  const dates = useDates();
  return (
    <li data-testid="report-claim" className="grid gap-1 py-3 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium text-zinc-900">{claim.learnerName}</span>
        <Badge variant={STATUS_BADGES[claim.status]}>
          {REPORT_CLAIM_STATUS_LABELS[claim.status]}
        </Badge>
        {claim.overdue ? <Badge variant="destructive">Overdue</Badge> : null}
      </div>
      <p className="text-sm text-zinc-600">
        {claim.courseTitle} · {creditAmountText(claim.amount, claim.creditName)} · completed{" "}
        {dates.day(claim.completedOn)}
        {claim.waitingDays !== null ? ` · waiting ${plural(claim.waitingDays, "day")}` : ""}
      </p>
      {claim.status === "reported" && claim.fileName ? (
        <p className="text-sm text-zinc-600 break-all">
          Reported {dates.date(claim.reportedOn)} in {claim.fileName}
        </p>
      ) : null}
      <p className="text-sm text-zinc-600" data-testid="claim-consent">
        {claim.consent
          ? `Consent to reporting: “${claim.consent}”`
          : "No consent to reporting recorded: claimed before it was asked."}
      </p>
      {claim.submission ? <SubmissionAnswer submission={claim.submission} /> : null}
      {claim.problem ? <p className="text-sm text-amber-900">{claim.problem}</p> : null}
    </li>
  );
}

const SUBMISSION_BADGES: Record<
  CpeMonitorSubmission["status"],
  "success" | "warning" | "destructive"
> = {
  accepted: "success",
  refused: "destructive",
  waiting: "warning",
};

/** CPE Monitor's answer to the claim as last sent: accepted, refused with its message, or waiting. */
function SubmissionAnswer({ submission }: { submission: CpeMonitorSubmission }) {
  const dates = useDates();
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="claim-submission">
      <Badge variant={SUBMISSION_BADGES[submission.status]}>
        {CPE_MONITOR_STATUS_LABELS[submission.status]}
      </Badge>
      {submission.status === "refused" ? (
        <span className="text-zinc-800">“{submission.message}”</span>
      ) : null}
      {submission.status === "waiting" && submission.nextAttemptAt ? (
        <span className="text-zinc-600">
          Sent again {dates.dateTime(submission.nextAttemptAt)} (attempt {submission.attempts + 1})
        </span>
      ) : null}
      {submission.status === "accepted" && submission.answeredAt ? (
        <span className="text-zinc-600">on {dates.date(submission.answeredAt)}</span>
      ) : null}
    </div>
  );
}
