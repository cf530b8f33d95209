import { csvRow, type LearnerImportPreviewRow, type LearnerImportResultRow } from "@contract";

/** A file row that was not registered, with why. */
export type RejectedRow = { row: LearnerImportPreviewRow; errors: string[] };

/**
 * The rows that were not registered: those the preview refused, and those the import
 * refused or found already registered, each with its reasons, in file order.
 */
export function rejectedRows(
  preview: LearnerImportPreviewRow[],
  results: LearnerImportResultRow[],
): RejectedRow[] {
  const byLine = new Map(results.map((result) => [result.line, result]));
  return preview.flatMap((row) => {
    if (row.errors.length) return [{ row, errors: row.errors }];
    const result = byLine.get(row.line);
    if (!result || result.outcome === "registered") return [];
    return [{ row, errors: result.errors }];
  });
}

/**
 * The rejected rows as a file to fix and import again: the original columns and an error
 * column, written by the portal's one CSV writer (safe to open in a spreadsheet of any locale).
 */
export function rejectedRowsCsv(rejected: RejectedRow[]): string {
  const lines = [csvRow(["name", "email", "phone", "courses", "error"])];
  for (const { row, errors } of rejected) {
    lines.push(csvRow([row.name, row.email, row.phone, row.coursesCell, errors.join("; ")]));
  }
  // A byte-order mark first makes spreadsheet programs read the file as UTF-8.
  return `\ufeff${lines.join("")}`;
}
