import { Readable } from "node:stream";
import type { FastifyReply } from "fastify";

/**
 * RFC 4180 field; a leading =, +, - or @ is neutralised so spreadsheets never run it. A field
 * holding the separator of any common locale (`,` `;` or tab) is quoted too: a spreadsheet
 * that splits on `;` would otherwise read `Intro;=1+1` as two cells, the second a formula.
 */
export function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",;\t\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line (CRLF-terminated, as RFC 4180 has it); a missing value is an empty field. */
export const csvRow = (fields: readonly (string | number | null | undefined)[]) =>
  `${fields.map((f) => csvField(f ?? "")).join(",")}\r\n`;

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
