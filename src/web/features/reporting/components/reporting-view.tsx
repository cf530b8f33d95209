import {
  creditAmountText,
  DEADLINE_DAYS_MAX,
  REGULATOR_NAMES,
  REGULATORS,
  REPORT_CLAIM_STATUS_LABELS,
  type Regulator,
  type RegulatorOverview,
  type ReportClaim,
  type ReportFile,
} from "@contract";
import {
  AlarmClockIcon,
  CircleCheckIcon,
  DownloadIcon,
  FileOutputIcon,
  HourglassIcon,
  SendIcon,
} from "lucide-react";
import { useId, useState } from "react";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "../../../components/ui/card";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../components/ui/dialog";
import { EmptyState } from "../../../components/ui/empty-state";
import { Field } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { LoadError } from "../../../components/ui/load-error";
import { Skeleton } from "../../../components/ui/skeleton";
import { Spinner } from "../../../components/ui/spinner";
import { StatCard } from "../../../components/ui/stat-card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../components/ui/tabs";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage, loadFailureHint } from "../../../lib/api-client";
import { formatDate, plural } from "../../../lib/format";
import { useGenerateReportFile } from "../api/generate-report-file";
import { useRegulators } from "../api/get-regulators";
import { useReportClaims } from "../api/get-report-claims";
import { reportFileDownloadUrl, useReportFiles } from "../api/get-report-files";
import { useSaveRegulatorDeadline } from "../api/save-regulator-deadline";
import { useSubmitReportFile } from "../api/submit-report-file";
import { NativeSelect } from "./regulator-ids-form";

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/**
 * /admin/reporting: for each regulator, the report files of a course and date range, their
 * submission, and every claim with where it stands, those waiting past the deadline first.
 * `courseId` opens the page on one course (from its course page).
 */
export function ReportingView({ courseId }: { courseId?: string }) {
  const query = useRegulators();
  const [tab, setTab] = useState<Regulator | undefined>(undefined);

  if (query.isPending) {
    return (
      <div className="grid gap-4" aria-hidden="true">
        <Skeleton className="h-10 w-80 rounded-xl" />
        <Skeleton className="h-40 w-full rounded-2xl" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadError
        message={loadFailureHint(query.error, "We couldn't load the reporting overview.")}
        onRetry={() => void query.refetch()}
      />
    );
  }
  const overviews = query.data;
  // Open on the regulator the course reports to, or the first with anything to report.
  const preferred =
    overviews.find((o) => courseId && o.courses.some((c) => c.id === courseId)) ??
    overviews.find((o) => o.courses.length) ??
    overviews[0]!;
  const selected = tab ?? preferred.regulator;

  return (
    <Tabs value={selected} onValueChange={(v) => setTab(v as Regulator)}>
      <TabsList aria-label="Regulators">
        {REGULATORS.map((regulator) => {
          const overdue = overviews.find((o) => o.regulator === regulator)?.overdue ?? 0;
          return (
            <TabsTrigger key={regulator} value={regulator}>
              {REGULATOR_NAMES[regulator]}
              {overdue ? (
                <Badge variant="warning" aria-label={`${overdue} overdue`}>
                  {overdue}
                </Badge>
              ) : null}
            </TabsTrigger>
          );
        })}
      </TabsList>
      {overviews.map((overview) => (
        <TabsContent key={overview.regulator} value={overview.regulator} className="grid gap-6">
          <RegulatorPanel overview={overview} courseId={courseId} />
        </TabsContent>
      ))}
    </Tabs>
  );
}

function RegulatorPanel({
  overview,
  courseId,
}: {
  overview: RegulatorOverview;
  courseId?: string;
}) {
  const { regulator } = overview;
  const known = overview.courses.some((c) => c.id === courseId);
  const [course, setCourse] = useState(known ? courseId! : (overview.courses[0]?.id ?? ""));
  const filter = course || undefined;
  return (
    <>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4">
        <StatCard
          label="Waiting to be reported"
          value={overview.waiting}
          icon={<HourglassIcon />}
          tone="sky"
        />
        <StatCard
          label={`Waiting over ${plural(overview.deadlineDays, "day")}`}
          value={overview.overdue}
          icon={<AlarmClockIcon />}
          tone={overview.overdue ? "amber" : "emerald"}
        />
        <DeadlineCard overview={overview} />
      </div>
      {overview.courses.length === 0 ? (
        <EmptyState
          icon={<FileOutputIcon />}
          title={`No course reports to ${REGULATOR_NAMES[regulator]}`}
          description="Choose the regulators of a course's credit types on its course page."
        />
      ) : (
        <>
          <GenerateCard overview={overview} course={course} onCourse={setCourse} />
          <FilesCard regulator={regulator} courseId={filter} />
          <ClaimsCard
            regulator={regulator}
            courseId={filter}
            deadlineDays={overview.deadlineDays}
          />
        </>
      )}
    </>
  );
}

function DeadlineCard({ overview }: { overview: RegulatorOverview }) {
  const save = useSaveRegulatorDeadline();
  const [days, setDays] = useState(String(overview.deadlineDays));
  const id = `deadline-${overview.regulator}`;
  const value = Number(days);
  const valid = Number.isInteger(value) && value >= 1 && value <= DEADLINE_DAYS_MAX;
  return (
    <form
      className="col-span-2 grid gap-2 rounded-2xl border border-zinc-200 bg-white p-4 shadow-xs shadow-zinc-950/5 sm:col-span-1"
      onSubmit={(e) => {
        e.preventDefault();
        if (!valid) return;
        save.mutate(
          { regulator: overview.regulator, deadlineDays: value },
          {
            onSuccess: () => toast({ title: "Deadline saved" }),
            onError: (error) =>
              toast({
                variant: "destructive",
                title: "Could not save the deadline",
                description: getErrorMessage(error) ?? "Please try again.",
              }),
          },
        );
      }}
    >
      <Field
        id={id}
        label="Report within (days)"
        error={valid ? undefined : `Between 1 and ${DEADLINE_DAYS_MAX} days`}
      >
        <div className="flex gap-2">
          <Input
            id={id}
            type="number"
            min={1}
            max={DEADLINE_DAYS_MAX}
            inputMode="numeric"
            value={days}
            onChange={(e) => setDays(e.target.value)}
            aria-invalid={valid ? undefined : true}
            className="w-24"
          />
          <Button type="submit" variant="outline" disabled={!valid || save.isPending}>
            {save.isPending ? <Spinner /> : null}
            Save
          </Button>
        </div>
      </Field>
    </form>
  );
}

function GenerateCard({
  overview,
  course,
  onCourse,
}: {
  overview: RegulatorOverview;
  course: string;
  onCourse: (id: string) => void;
}) {
  const { regulator } = overview;
  const generate = useGenerateReportFile();
  const base = useId();
  const today = new Date();
  const [from, setFrom] = useState(dayOf(new Date(today.getTime() - 365 * 86_400_000)));
  const [to, setTo] = useState(dayOf(today));
  const [result, setResult] = useState<ReportFile | null>(null);
  const [error, setError] = useState<string | null>(null);

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">New file</CardTitle>
        <CardDescription>
          One file per course and range of completion dates, in {REGULATOR_NAMES[regulator]}'s
          upload format. It holds only claims not yet reported, or changed since.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form
          className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            setError(null);
            generate.mutate(
              { regulator, body: { courseId: course, from, to } },
              {
                onSuccess: (file) => {
                  setResult(file);
                  toast({ title: "File generated", description: file.fileName });
                },
                onError: (err) => {
                  setResult(null);
                  setError(getErrorMessage(err) ?? "The file could not be generated.");
                },
              },
            );
          }}
        >
          <Field id={`${base}-course`} label="Course">
            <NativeSelect
              id={`${base}-course`}
              value={course}
              onChange={(e) => onCourse(e.target.value)}
            >
              {overview.courses.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.title}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field id={`${base}-from`} label="Completed from">
            <Input
              id={`${base}-from`}
              type="date"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
            />
          </Field>
          <Field id={`${base}-to`} label="Completed to">
            <Input
              id={`${base}-to`}
              type="date"
              value={to}
              onChange={(e) => setTo(e.target.value)}
            />
          </Field>
          <Button type="submit" disabled={!course || generate.isPending}>
            {generate.isPending ? <Spinner /> : <FileOutputIcon aria-hidden="true" />}
            Generate file
          </Button>
        </form>
        {error ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {error}
          </p>
        ) : null}
        {result ? <GeneratedResult file={result} /> : null}
      </CardContent>
    </Card>
  );
}

function GeneratedResult({ file }: { file: ReportFile }) {
  return (
    <div
      role="status"
      className="grid gap-3 rounded-xl border border-emerald-200 bg-emerald-50/60 p-4 text-sm"
      data-testid="generated-file"
    >
      <p className="flex flex-wrap items-center gap-2 text-emerald-900">
        <CircleCheckIcon className="size-4" aria-hidden="true" />
        <span className="font-medium break-all">{file.fileName}</span>
        <span>· {plural(file.rowCount, "row")}</span>
      </p>
      {file.refused.length ? <RefusedRows file={file} /> : null}
    </div>
  );
}

function RefusedRows({ file }: { file: ReportFile }) {
  return (
    <div className="grid gap-2 rounded-lg border border-amber-200 bg-white p-3">
      <p className="text-sm font-medium text-amber-900">
        {plural(file.refused.length, "claim")} refused by the format, not in the file:
      </p>
      <ul className="grid gap-2" data-testid="refused-rows">
        {file.refused.map((r) => (
          <li key={r.claimKey} className="text-sm text-zinc-800">
            <span className="font-medium">{r.learnerName}</span>{" "}
            <span className="text-zinc-600">(completed {formatDate(r.completedOn)})</span>:{" "}
            {r.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}

function FilesCard({ regulator, courseId }: { regulator: Regulator; courseId?: string }) {
  const query = useReportFiles(regulator, courseId);
  const [submitting, setSubmitting] = useState<ReportFile | null>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base" id={`files-${regulator}`}>
          Files
        </CardTitle>
        <CardDescription>
          Download a file, upload it to {REGULATOR_NAMES[regulator]}, then mark it as submitted: its
          claims count as reported from then on. Any file downloads again exactly as made.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <Skeleton className="h-20 w-full rounded-xl" aria-hidden="true" />
        ) : query.isError ? (
          <LoadError
            message={loadFailureHint(query.error, "We couldn't load the files.")}
            onRetry={() => void query.refetch()}
          />
        ) : query.data.length === 0 ? (
          <p className="text-sm text-zinc-600">No file yet.</p>
        ) : (
          <ul aria-labelledby={`files-${regulator}`} className="grid gap-3">
            {query.data.map((file) => (
              <li
                key={file.id}
                data-testid="report-file"
                className="grid gap-3 rounded-xl border border-zinc-200 p-4 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center"
              >
                <div className="grid min-w-0 gap-1">
                  <p className="font-medium break-all text-zinc-900">{file.fileName}</p>
                  <p className="text-sm text-zinc-600">
                    {file.courseTitle} · completed {formatDate(file.from)} to {formatDate(file.to)}{" "}
                    · {plural(file.rowCount, "row")}
                    {file.refused.length ? ` · ${file.refused.length} refused` : ""}
                  </p>
                  <p className="text-sm">
                    {file.submittedAt ? (
                      <Badge variant="success">Submitted {formatDate(file.submittedAt)}</Badge>
                    ) : (
                      <Badge variant="secondary">Not submitted</Badge>
                    )}
                  </p>
                </div>
                <div className="flex flex-wrap gap-2">
                  <Button asChild variant="outline" size="sm">
                    <a href={reportFileDownloadUrl(regulator, file.id)} download={file.fileName}>
                      <DownloadIcon aria-hidden="true" />
                      Download
                    </a>
                  </Button>
                  {file.submittedAt ? null : (
                    <Button size="sm" onClick={() => setSubmitting(file)}>
                      <SendIcon aria-hidden="true" />
                      Mark as submitted
                    </Button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <SubmitDialog regulator={regulator} file={submitting} onClose={() => setSubmitting(null)} />
    </Card>
  );
}

function SubmitDialog({
  regulator,
  file,
  onClose,
}: {
  regulator: Regulator;
  file: ReportFile | null;
  onClose: () => void;
}) {
  const submit = useSubmitReportFile();
  return (
    <Dialog open={file !== null} onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Mark as submitted?</DialogTitle>
          <DialogDescription>
            Do this once {file?.fileName} is uploaded to {REGULATOR_NAMES[regulator]}. Its{" "}
            {plural(file?.rowCount ?? 0, "claim")} then count as reported, and the next file leaves
            them out.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={submit.isPending}
            onClick={() => {
              if (!file) return;
              submit.mutate(
                { regulator, fileId: file.id },
                {
                  onSuccess: () => {
                    toast({ title: "Marked as submitted", description: file.fileName });
                    onClose();
                  },
                  onError: (error) =>
                    toast({
                      variant: "destructive",
                      title: "Could not mark the file",
                      description: getErrorMessage(error) ?? "Please try again.",
                    }),
                },
              );
            }}
          >
            {submit.isPending ? <Spinner /> : null}
            Mark as submitted
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

const STATUS_BADGES: Record<ReportClaim["status"], "success" | "warning" | "secondary"> = {
  reported: "success",
  changed: "warning",
  not_reported: "secondary",
};

function ClaimsCard({
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
              <li
                key={claim.key}
                data-testid="report-claim"
                className="grid gap-1 py-3 first:pt-0 last:pb-0"
              >
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium text-zinc-900">{claim.learnerName}</span>
                  <Badge variant={STATUS_BADGES[claim.status]}>
                    {REPORT_CLAIM_STATUS_LABELS[claim.status]}
                  </Badge>
                  {claim.overdue ? <Badge variant="destructive">Overdue</Badge> : null}
                </div>
                <p className="text-sm text-zinc-600">
                  {claim.courseTitle} · {creditAmountText(claim.amount, claim.creditName)} ·
                  completed {formatDate(claim.completedOn)}
                  {claim.waitingDays !== null
                    ? ` · waiting ${plural(claim.waitingDays, "day")}`
                    : ""}
                </p>
                {claim.status === "reported" && claim.fileName ? (
                  <p className="text-sm text-zinc-600 break-all">
                    Reported {formatDate(claim.reportedOn)} in {claim.fileName}
                  </p>
                ) : null}
                {claim.problem ? <p className="text-sm text-amber-900">{claim.problem}</p> : null}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
