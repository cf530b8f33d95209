import { type EvaluationItem, type EvaluationResults, LIKERT_LABELS } from "../../../contract";
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
