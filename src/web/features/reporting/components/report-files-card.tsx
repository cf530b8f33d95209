import {
  REGULATOR_NAMES,
  REPORT_FILE_KIND_LABELS,
  type Regulator,
  type ReportFile,
} from "@contract";
import { DownloadIcon, SendIcon } from "lucide-react";
import { useState } from "react";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
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
import { reportFileDownloadUrl, useReportFiles } from "../api/get-report-files";
import { SubmitFileDialog } from "./submit-file-dialog";

/** The regulator's files (of one course), newest first: each downloadable, and marked submitted. */
export function ReportFilesCard({
  regulator,
  courseId,
}: {
  regulator: Regulator;
  courseId?: string;
}) {
  const dates = useDates();
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
                    {file.kind === "activities" ? `${REPORT_FILE_KIND_LABELS.activities} · ` : ""}
                    {file.courseTitle} · completed {dates.day(file.from)} to {dates.day(file.to)} ·{" "}
                    {plural(file.rowCount, "row")}
                    {file.refused.length ? ` · ${file.refused.length} refused` : ""}
                  </p>
                  <p className="text-sm">
                    {file.submittedAt ? (
                      <Badge variant="success">Submitted {dates.date(file.submittedAt)}</Badge>
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
      <SubmitFileDialog
        regulator={regulator}
        file={submitting}
        onClose={() => setSubmitting(null)}
      />
    </Card>
  );
}
