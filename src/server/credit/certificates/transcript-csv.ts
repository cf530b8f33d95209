import { formatCertificateCode, type Transcript } from "../../../contract";
import { csvRow } from "../../lib/csv";

const row = (...fields: (string | number | null)[]) => csvRow(fields);
/** Each value once, in order ("NASBA; ANCC"); null when there is none. */
const distinct = (values: (string | null)[]) =>
  [...new Set(values.filter(Boolean))].join("; ") || null;

/** The transcript as CSV lines (a header block, then one row per course). */
export function* transcriptCsvLines(t: Transcript): Generator<string> {
  yield row("Transcript", t.learner.name);
  yield row("Email", t.learner.email);
  yield row("Issued by", t.issuerName);
  yield row("Generated", t.generatedAt);
  yield row("Courses", t.totals.courses, "Completed", t.totals.completed);
  // One total per credit type: types are never added together.
  for (const total of t.totals.credits) yield row("Credit earned", total.name, total.amount);
  yield "\r\n";
  yield row(
    "Course",
    "Category",
    "Status",
    "Progress (%)",
    "Enrolled",
    "Completed",
    "Duration (hours)",
    "Credit",
    "Accrediting body",
    "Provider number",
    "Exam score (%)",
    "Exam passed at",
    "Certificate code",
    "Certificate status",
    "Revoked at",
    "Revoked reason",
    "Verification URL",
  );
  for (const e of t.entries) {
    yield row(
      e.courseTitle,
      e.courseCategory,
      e.status,
      e.progress,
      e.enrolledAt,
      e.completedAt,
      e.durationHours,
      e.credits.map((c) => c.text).join("; ") || null,
      distinct(e.credits.map((c) => c.accreditingBody)),
      distinct(e.credits.map((c) => c.providerNumber)),
      e.examScore,
      e.examPassedAt,
      e.certificate ? formatCertificateCode(e.certificate.code) : null,
      e.certificate?.status ?? null,
      e.certificate?.revokedAt ?? null,
      e.certificate?.revokedReason ?? null,
      e.certificate?.verifyUrl ?? null,
    );
  }
}

/** "Transcript-Ada-Lovelace.csv" (or .pdf). */
export function transcriptFileName(name: string, extension: "csv" | "pdf"): string {
  const safe =
    name
      .trim()
      .replace(/[^\p{L}\p{N}]+/gu, "-")
      .replace(/^-|-$/g, "") || "learner";
  return `Transcript-${safe}.${extension}`;
}
