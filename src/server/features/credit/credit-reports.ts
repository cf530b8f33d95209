import {
  type Certificate,
  claimedFields,
  type EvaluationItem,
  type EvaluationResults,
  LIKERT_LABELS,
} from "../../../contract";
import { csvRow } from "../../lib/csv";

interface Response {
  items: EvaluationItem[];
  answers: { itemId: string; value: number | string }[];
}

/**
 * Per-item figures of a course's evaluation: the current form's items first, then items
 * only older responses hold (removed since), so no answer is lost from the report.
 */
export function evaluationResults(
  courseId: string,
  current: EvaluationItem[],
  responses: Response[],
): EvaluationResults {
  const items = new Map(current.map((i) => [i.id, i]));
  for (const response of responses) {
    for (const item of response.items) if (!items.has(item.id)) items.set(item.id, item);
  }
  return {
    courseId,
    responses: responses.length,
    items: [...items.values()].map((item) => {
      const values = responses.flatMap((r) =>
        r.answers.filter((a) => a.itemId === item.id).map((a) => a.value),
      );
      const ratings = values.filter((v): v is number => typeof v === "number");
      const distribution = [1, 2, 3, 4, 5].map((n) => ratings.filter((r) => r === n).length);
      return {
        id: item.id,
        kind: item.kind,
        text: item.text,
        answered: values.length,
        mean: ratings.length
          ? Math.round((ratings.reduce((a, b) => a + b, 0) / ratings.length) * 100) / 100
          : null,
        distribution: item.kind === "likert" ? distribution : [],
        comments: values.filter((v): v is string => typeof v === "string"),
      };
    }),
  };
}

/** The evaluation as a spreadsheet: one row per rating item, one per comment. */
export function* evaluationCsvLines(results: EvaluationResults): Generator<string> {
  yield csvRow(["Item", "Kind", "Answered", "Mean", ...LIKERT_LABELS, "Comment"]);
  for (const item of results.items) {
    if (item.kind === "likert") {
      yield csvRow([item.text, "Rating", item.answered, item.mean ?? "", ...item.distribution, ""]);
    } else {
      for (const comment of item.comments) {
        yield csvRow([item.text, "Comment", "", "", "", "", "", "", "", comment]);
      }
    }
  }
}

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
