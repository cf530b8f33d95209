import { Readable } from "node:stream";
import type { FastifyReply } from "fastify";

/** Every export writes its lines with the contract's one CSV writer (see `contract/csv.ts`). */
export { csvField, csvRow } from "../../contract";

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
