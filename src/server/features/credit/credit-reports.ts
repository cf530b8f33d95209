import { type Certificate, claimedFields } from "../../../contract";
import { csvRow } from "../../lib/csv";

const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : "");

/**
 * The credit report a provider sends its accreditor or regulator: one row per learner who
 * earned credit (valid certificates), from what each certificate recorded at issue, with a
 * column of credits for every field of study.
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
    "Credits claimed",
    "Credit type",
    ...fields.map((f) => `Credits: ${f}`),
    "Exam score",
    "Certificate code",
  ]);
  for (const c of certificates) {
    const claimed = c.credit?.creditsClaimed ?? c.creditHours;
    const perField = new Map(
      claimedFields(c.credit?.fieldsOfStudy ?? [], c.creditHours, claimed).map((f) => [
        f.field,
        f.credits,
      ]),
    );
    const licence = c.credit?.licence;
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
      claimed ?? "",
      c.creditType,
      ...fields.map((f) => perField.get(f) ?? ""),
      c.examScore ?? "",
      c.code,
    ]);
  }
}
