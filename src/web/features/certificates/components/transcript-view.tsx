import {
  COMPLETION_STEP_LABELS,
  creditLines,
  formatCertificateCode,
  type Transcript,
  type TranscriptEntry,
} from "@contract";
import { FileSpreadsheetIcon, FileTextIcon, GraduationCapIcon } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { EmptyState } from "../../../components/ui/empty-state";
import { PageLoadError } from "../../../components/ui/page-load-error";
import { Skeleton } from "../../../components/ui/skeleton";
import { useDates } from "../../../lib/dates";
import { useDateFormat } from "../../../lib/organisation";
import { transcriptUrl, useTranscript } from "../api/get-transcript";
import { AddToLinkedInLink, DownloadCredentialLink } from "./credential-links";
import { RevokeCertificateDialog, type RevokeTarget } from "./revoke-certificate-dialog";

/** PDF and CSV downloads of a transcript (served by the API as attachments). */
export function TranscriptDownloads({ learnerId }: { learnerId: string }) {
  return (
    <>
      <Button asChild variant="outline">
        <a href={transcriptUrl(learnerId, "pdf")} download>
          <FileTextIcon aria-hidden="true" />
          Download PDF
        </a>
      </Button>
      <Button asChild variant="outline">
        <a href={transcriptUrl(learnerId, "csv")} download>
          <FileSpreadsheetIcon aria-hidden="true" />
          Download CSV
        </a>
      </Button>
    </>
  );
}

/**
 * A learner's transcript: every course with its dates, hours, credit and
 * certificate. Administrators (`canRevoke`) may revoke a valid certificate from here.
 */
export function TranscriptView({
  learnerId,
  canRevoke = false,
  own = false,
}: {
  learnerId: string;
  canRevoke?: boolean;
  /** The learner reads their own transcript: its texts speak to them. */
  own?: boolean;
}) {
  const query = useTranscript(learnerId);
  const [revoking, setRevoking] = useState<RevokeTarget | null>(null);

  if (query.isPending) {
    return (
      <div role="status" aria-label="Loading the transcript" className="grid gap-4">
        <Skeleton className="h-24 rounded-2xl" />
        <Skeleton className="h-40 rounded-2xl" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <PageLoadError
        title="We couldn't load the transcript"
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  }
  const t = query.data;
  return (
    <div className="grid gap-6">
      <Totals transcript={t} />
      {t.entries.length ? (
        <ul className="grid gap-3" aria-label="Courses">
          {t.entries.map((entry, i) => (
            <EntryCard
              key={entry.certificate?.id ?? `${entry.courseId}-${i}`}
              entry={entry}
              issuerName={t.issuerName}
              own={own}
              onRevoke={
                canRevoke && entry.certificate?.status === "valid"
                  ? () =>
                      setRevoking({
                        id: entry.certificate!.id,
                        courseTitle: entry.courseTitle,
                        learnerName: t.learner.name,
                      })
                  : undefined
              }
            />
          ))}
        </ul>
      ) : (
        <EmptyState
          icon={<GraduationCapIcon aria-hidden="true" />}
          title="No courses yet"
          description={
            own
              ? "Your courses will appear here once an administrator enrolls you, each with its dates, hours, credit and certificate."
              : "Courses appear here once the learner is enrolled."
          }
        />
      )}
      {canRevoke ? (
        <RevokeCertificateDialog target={revoking} onClose={() => setRevoking(null)} />
      ) : null}
    </div>
  );
}

/**
 * The courses, the completed ones, and the credit earned: one total per credit type (a CPE
 * credit and a contact hour are never added together).
 */
function Totals({ transcript: t }: { transcript: Transcript }) {
  const items = [
    { label: "Courses", value: t.totals.courses },
    { label: "Completed", value: t.totals.completed },
  ];
  return (
    <section aria-label="Totals" className="grid grid-cols-2 gap-3 sm:grid-cols-3">
      {items.map((item) => (
        <div key={item.label} className="rounded-2xl border border-zinc-200 bg-white px-4 py-3">
          <p className="text-xs text-zinc-600">{item.label}</p>
          <p
            className="text-xl font-semibold text-zinc-950 tabular-nums"
            data-testid={`transcript-${item.label.toLowerCase().replace(" ", "-")}`}
          >
            {item.value}
          </p>
        </div>
      ))}
      <div className="col-span-2 rounded-2xl border border-zinc-200 bg-white px-4 py-3 sm:col-span-1">
        <p className="text-xs text-zinc-600">Credit earned</p>
        {t.totals.credits.length ? (
          <ul data-testid="transcript-credit" className="grid gap-0.5">
            {t.totals.credits.map((total) => (
              <li key={total.name} className="text-base font-semibold text-zinc-950 tabular-nums">
                {total.text}
              </li>
            ))}
          </ul>
        ) : (
          <p data-testid="transcript-credit" className="text-xl font-semibold text-zinc-950">
            None yet
          </p>
        )}
      </div>
    </section>
  );
}

const STATUS = {
  completed: { text: "Completed", variant: "success" },
  "in-progress": { text: "In progress", variant: "default" },
  "not-started": { text: "Not started", variant: "secondary" },
} as const;

/**
 * What is true of an entry: "Exam failed" rather than "In progress · 100%" for a learner whose
 * modules are done but who failed the exam, the step still due for one who has not finished.
 */
function standingText(e: TranscriptEntry, text: string): string {
  if (e.status !== "in-progress") return text;
  if (e.examFailed) return "Exam failed";
  if (e.nextStep) return `${text} · ${COMPLETION_STEP_LABELS[e.nextStep]} next`;
  return `${text} · ${e.progress}%`;
}

function EntryCard({
  entry: e,
  issuerName,
  own,
  onRevoke,
}: {
  entry: TranscriptEntry;
  issuerName: string;
  /** The learner's own transcript: their certificates can go to LinkedIn from here. */
  own: boolean;
  onRevoke?: () => void;
}) {
  const dateFormat = useDateFormat();
  const dates = useDates();
  const credit = creditLines(e, dateFormat);
  const subject = e.credits.length ? e.fieldOfStudy : e.courseCategory;
  const status = STATUS[e.status];
  const cert = e.certificate;
  const revoked = cert?.status === "revoked";
  return (
    <li
      data-testid="transcript-entry"
      className="grid gap-3 rounded-2xl border border-zinc-200 bg-white p-4 shadow-xs shadow-zinc-950/5 sm:p-5"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid min-w-0 gap-0.5">
          <h3 className="text-[15px] font-semibold text-zinc-950">{e.courseTitle}</h3>
          {/* A course with credit names its field of study, never the spec's category. */}
          {subject ? <p className="text-sm text-zinc-600">{subject}</p> : null}
        </div>
        <Badge
          variant={e.examFailed ? "destructive" : status.variant}
          data-testid="transcript-status"
        >
          {standingText(e, status.text)}
        </Badge>
      </div>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-xs text-zinc-600">Enrolled</dt>
          <dd className="text-zinc-900">{dates.date(e.enrolledAt)}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-600">Completed</dt>
          <dd className="text-zinc-900">{dates.date(e.completedAt)}</dd>
        </div>
        {/* A credit course's record is its credit: its whole-hour length would be read against it. */}
        {e.credits.length ? null : (
          <div>
            <dt className="text-xs text-zinc-600">Hours</dt>
            <dd className="text-zinc-900 tabular-nums">{e.durationHours}</dd>
          </div>
        )}
        <div>
          <dt className="text-xs text-zinc-600">Credit</dt>
          <dd className="text-zinc-900" data-testid="transcript-entry-credit">
            {e.credits.length ? e.credits.map((c) => c.text).join(" · ") : "—"}
            {/* The totals leave out a revoked certificate's credit: the entry says why. */}
            {e.credits.length && revoked ? (
              <span className="block text-xs text-red-800">Not counted: certificate revoked</span>
            ) : null}
          </dd>
        </div>
      </dl>
      {credit.length > e.credits.length ? (
        <p className="text-xs text-zinc-600">{credit.slice(e.credits.length).join(" · ")}</p>
      ) : null}
      {cert ? (
        <div className="flex flex-col gap-2 border-t border-zinc-100 pt-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="grid gap-0.5 text-xs text-zinc-600">
            <span>
              Certificate{" "}
              <span className="font-mono text-zinc-900" data-testid="transcript-certificate-code">
                {formatCertificateCode(cert.code)}
              </span>{" "}
              {cert.status === "valid" ? (
                <Badge variant="success">Valid</Badge>
              ) : (
                <Badge variant="destructive">Revoked</Badge>
              )}
            </span>
            {revoked ? (
              <span className="text-red-800" data-testid="transcript-revoked">
                Revoked on {dates.date(cert.revokedAt)}. Reason: {cert.revokedReason}
              </span>
            ) : null}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="ghost" size="sm">
              <Link to={`/verify/${cert.code}`}>
                Verification page<span className="sr-only"> for {e.courseTitle}</span>
              </Link>
            </Button>
            {/* Administrators keep the record, stamped REVOKED; the learner's screens no
                longer offer a revoked certificate as a file (revoked-certificate-note.tsx). */}
            {own && revoked ? null : (
              <Button asChild variant="outline" size="sm">
                <a href={`/api/certificates/${encodeURIComponent(cert.id)}/pdf`} download>
                  {revoked ? "Revoked certificate PDF" : "Certificate PDF"}
                  <span className="sr-only"> for {e.courseTitle}</span>
                </a>
              </Button>
            )}
            {cert.status === "valid" ? (
              <DownloadCredentialLink
                code={cert.code}
                courseTitle={e.courseTitle}
                variant="outline"
                size="sm"
              />
            ) : null}
            {own && cert.status === "valid" && e.completedAt ? (
              <AddToLinkedInLink
                certificate={{
                  courseTitle: e.courseTitle,
                  issuerName,
                  // A certificate is issued when its course completes.
                  issuedAt: e.completedAt,
                  verifyUrl: cert.verifyUrl,
                  code: cert.code,
                }}
                variant="outline"
                size="sm"
              />
            ) : null}
            {onRevoke ? (
              <Button
                variant="outline"
                size="sm"
                className="text-red-700 hover:border-red-300 hover:bg-red-50 hover:text-red-800"
                onClick={onRevoke}
              >
                Revoke<span className="sr-only"> the certificate for {e.courseTitle}</span>
              </Button>
            ) : null}
          </div>
        </div>
      ) : null}
    </li>
  );
}
