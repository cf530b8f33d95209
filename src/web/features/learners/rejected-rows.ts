import type { LearnerImportPreviewRow, LearnerImportResultRow } from "@contract";

/**
 * One CSV field. A leading =, +, - or @ is neutralised so a spreadsheet never runs it as a
 * formula (the file holds what people typed); a field holding a separator of any common
 * locale, a quote or a line break is quoted.
 */
function csvField(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",;\t\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

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

/** The rejected rows as a file to fix and import again: the original columns and an error column. */
export function rejectedRowsCsv(rejected: RejectedRow[]): string {
  const lines = [["name", "email", "phone", "courses", "error"].join(",")];
  for (const { row, errors } of rejected) {
    lines.push(
      [row.name, row.email, row.phone, row.coursesCell, errors.join("; ")].map(csvField).join(","),
    );
  }
  // A byte-order mark first makes spreadsheet programs read the file as UTF-8.
  return `\ufeff${lines.join("\r\n")}\r\n`;
}
