import { type Certificate, claimedFields } from "../../../contract";
import { csvRow } from "../../lib/csv";

const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : "");
const hundredths = (n: number) => Math.round(n * 100);

/**
 * The credit report a provider sends its accreditors or regulators: one row per learner and
 * credit type earned (valid certificates), from what each certificate recorded at issue, so
 * each body's credit can be filtered out and no two types are ever added. Fields of study
 * have a column each, on the row of the type they count.
 */
export function* creditReportLines(
  certificates: (Certificate & { learnerEmail: string | null; enrolledAt: string })[],
): Generator<string> {
  const fields: string[] = [];
  for (const c of certificates) {
    for (const f of c.credit?.fieldsOfStudy ?? [])
      if (!fields.includes(f.field)) fields.push(f.field);
  }
  yield csvRow([
    "Learner name",
    "Email",
    "Licence type",
    "Licence number",
    "Issuing state or board",
    "NPN",
    "Enrolled on",
    "Completed on",
    "Attested on",
    "Credit type",
    "Credits claimed",
    "Accrediting body",
    "Provider number",
    ...fields.map((f) => `Credits: ${f}`),
    "Exam score",
    "Certificate code",
  ]);
  for (const c of certificates) {
    const studied = claimedFields(
      c.credit?.fieldsOfStudy ?? [],
      c.creditHours,
      c.credit?.creditsClaimed ?? c.creditHours,
    );
    const perField = new Map(studied.map((f) => [f.field, f.credits]));
    const studiedTotal = hundredths(studied.reduce((sum, f) => sum + f.credits, 0));
    const fieldsRow = Math.max(
      0,
      c.credits.findIndex((credit) => hundredths(credit.amount) === studiedTotal),
    );
    const licence = c.credit?.licence;
    const rows = c.credits.length ? c.credits : [null];
    for (const [i, credit] of rows.entries()) {
      yield csvRow([
        c.learnerName,
        c.learnerEmail ?? "",
        licence?.licenceType,
        licence?.licenceNumber,
        licence?.licenceState,
        licence?.npn,
        day(c.enrolledAt),
        day(c.completedAt),
        day(c.credit?.attestedAt),
        credit?.name ?? "",
        credit?.amount ?? "",
        credit?.accreditingBody ?? "",
        credit?.providerNumber ?? "",
        ...fields.map((f) => (i === fieldsRow ? (perField.get(f) ?? "") : "")),
        c.examScore ?? "",
        c.code,
      ]);
    }
  }
}
