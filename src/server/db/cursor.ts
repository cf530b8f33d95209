import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import { invalidField } from "../plugins/errors";

/**
 * Keyset cursors (newest first by created_at, id): opaque to clients. `createdAt` is the
 * row's exact time as text, never a JS Date: PostgreSQL keeps microseconds and a Date only
 * milliseconds, so a Date cursor skips every row created later in the same millisecond
 * (all rows of one bulk insert share one now()).
 */
export interface KeysetCursor {
  createdAt: string;
  id: string;
}

/** A keyset page's rows carry their exact creation time beside their columns. */
export interface KeysetRow {
  cursorAt: string;
  id: string;
}

/** created_at as exact UTC text with microseconds: select it as `cursorAt` on a keyset page. */
export const exactTime = (column: AnyColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Rows after the cursor in (created_at desc, id desc) order; a row comparison the index serves. */
export function afterCursor(
  createdAt: AnyColumn,
  id: AnyColumn,
  cursor: KeysetCursor | undefined,
): SQL | undefined {
  if (!cursor) return undefined;
  return sql`(${createdAt}, ${id}) < (${cursor.createdAt}::timestamptz, ${cursor.id})`;
}

export function encodeCursor(row: KeysetRow): string {
  return Buffer.from(`${row.cursorAt}|${row.id}`).toString("base64url");
}

const EXACT_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?Z$/;
/** Row ids are server-made (base64url, or `enr-…` style from the scale seed). */
const ROW_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A real instant PostgreSQL accepts: Date.parse alone lets "2024-02-30" or year 0 through,
 * and PostgreSQL then fails the query (a 500 instead of a 400).
 */
function isExactTime(text: string): boolean {
  const match = EXACT_TIME.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as number[];
  if (year! < 1000) return false;
  const date = new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month! - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
}

export function decodeCursor(value: string | undefined): KeysetCursor | undefined {
  if (!value) return undefined;
  const [createdAt, id, ...rest] = Buffer.from(value, "base64url").toString("utf8").split("|");
  if (!id || !createdAt || rest.length > 0 || !ROW_ID.test(id) || !isExactTime(createdAt)) {
    throw invalidField(
      "validation.invalid_cursor",
      "cursor",
      "This page of the list has expired: start again from the first page.",
    );
  }
  return { createdAt, id };
}

/** Fetches one row more than asked to know whether another page exists. */
export function pageOf<T extends KeysetRow>(rows: T[], limit: number) {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}
