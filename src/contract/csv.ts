/**
 * The one CSV writer of every file the portal exports: the server's downloads and the file of
 * rejected rows the web client builds after a learner import.
 *
 * Spreadsheets run a cell that starts with =, +, - or @ (or a tab or carriage return before
 * one) as a formula (OWASP "CSV injection"). A spreadsheet splitting on `;` (European
 * locales) or on tab reads a quoted field holding those characters as several cells, and the
 * quote then sits inside a cell, so quoting protects nothing: every point where such a
 * reader, or one that splits lines first, starts a cell gets the same treatment as the start
 * of the field. A `'` is put before the formula character (quotes before it included), which
 * spreadsheets show as text.
 *
 * An id (16 or more letters, digits, `_` and `-`) is left as it is, though one in 64 starts
 * with `-` (ids are base64url): such text can call nothing, and an id must read back exactly
 * (the audit export's hashes are recomputed from the file).
 */
const FORMULA_AT_START = /^(?="*[=+\-@\t\r])/;
const FORMULA_AFTER_BREAK = /([;\t\r\n])(?="*[=+\-@\t\r])/g;
const ID = /^[\w-]{16,}$/;

/** Text with a `'` before each formula it would start in some spreadsheet; other text as it is. */
export const formulaSafe = (text: string) =>
  ID.test(text) ? text : text.replace(FORMULA_AT_START, "'").replace(FORMULA_AFTER_BREAK, "$1'");

/**
 * One RFC 4180 field, inert in a spreadsheet of any locale. A field holding the separator of
 * a common locale (`,` `;` or tab), a quote or a line break is quoted.
 */
export function csvField(value: string | number): string {
  const text = typeof value === "string" ? formulaSafe(value) : String(value);
  return /[",;\t\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line (CRLF-terminated, as RFC 4180 has it); a missing value is an empty field. */
export const csvRow = (fields: readonly (string | number | null | undefined)[]) =>
  `${fields.map((f) => csvField(f ?? "")).join(",")}\r\n`;

/**
 * One tab-delimited line (CRLF-terminated), for the regulators' text uploads made the way
 * Excel saves "Text (Tab delimited)". The format has no quoting, so a tab or line break
 * inside a value becomes a space; each field is made inert like a CSV field (`formulaSafe`),
 * since such files are opened in spreadsheets too.
 */
export const tabRow = (fields: readonly (string | number | null | undefined)[]) =>
  `${fields.map((f) => formulaSafe(String(f ?? "").replace(/[\t\r\n]+/g, " "))).join("\t")}\r\n`;
