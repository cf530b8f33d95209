import { Readable } from "node:stream";
import type { FastifyReply } from "fastify";

/** Every export writes its lines with the contract's one CSV writer (see `contract/csv.ts`). */
export { csvField, csvRow } from "../../contract";

/**
 * Why csv-parse could not read an uploaded file, in the words of whoever saved it from a
 * spreadsheet, with the line to look at: "The file is not a readable CSV: line 3 has a stray
 * quote (") inside a value." Never csv-parse's own text, which names its internals.
 */
export function unreadableCsvMessage(error: unknown): string {
  const { code, lines } = (error ?? {}) as { code?: unknown; lines?: unknown };
  const line = typeof lines === "number" ? lines : null;
  const where = line === null ? "a line" : `line ${line}`;
  const problem = (() => {
    switch (code) {
      case "INVALID_OPENING_QUOTE":
      case "CSV_INVALID_OPENING_QUOTE":
        return `${where} has a stray quote (") inside a value. Put the whole value in quotes and double the quote inside it, or remove it.`;
      case "CSV_INVALID_CLOSING_QUOTE":
      case "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE":
        return `${where} has text after a closing quote ("). Put the whole value in quotes and double each quote inside it.`;
      case "CSV_QUOTE_NOT_CLOSED":
        return `a quote (") is opened and never closed${line === null ? "" : ` (the file ends on line ${line})`}. Check the quotes of the last rows.`;
      case "CSV_MAX_RECORD_SIZE":
        return `${where} is too long to be a row of this file.`;
      default:
        return "save it from your spreadsheet as CSV (comma-separated values) and try again.";
    }
  })();
  return `The file is not a readable CSV: ${problem}`;
}

/**
 * A title as part of a download's file name (a header: ASCII only): accents dropped, letters
 * and digits kept, every other run one dash, at most 60 characters; "course" when nothing
 * is left (a title in another script).
 */
export function fileNamePart(title: string): string {
  const part = title
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .slice(0, 60)
    .replace(/^-+|-+$/g, "");
  return part || "course";
}

/**
 * Sends CSV lines as a dated download (`<name>-YYYY-MM-DD.csv`), streamed; a byte-order mark
 * first makes spreadsheet programs read the file as UTF-8.
 */
export function sendCsvDownload(
  reply: FastifyReply,
  name: string,
  lines: Iterable<string> | AsyncIterable<string>,
) {
  const fileName = `${name}-${new Date().toISOString().slice(0, 10)}.csv`;
  reply
    .type("text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="${fileName}"`);
  return reply.send(
    Readable.from(
      (async function* () {
        yield "\ufeff";
        yield* lines;
      })(),
    ),
  );
}
