import { Readable } from "node:stream";
import type { FastifyReply } from "fastify";

/** Every export writes its lines with the contract's one CSV writer (see `contract/csv.ts`). */
export { csvField, csvRow } from "../../contract";

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
