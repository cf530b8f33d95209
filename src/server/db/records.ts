import { type SQL, sql } from "drizzle-orm";

/**
 * A batch's rows as one JSON parameter, read back as a table in the statement
 * (`select … from ${jsonRecords(rows)} as r(column type, …)`): the SQL text stays the same
 * whatever the batch's size, so building it costs the same for one row as for a hundred.
 * A parameter per value made building the statement a fifth of the portal's work under a
 * stream of heartbeats. Dates become ISO strings with milliseconds, exactly what a
 * timestamptz column keeps of a JavaScript Date.
 */
export const jsonRecords = (rows: object[]): SQL =>
  sql`jsonb_to_recordset(${recordsValue(rows)}::jsonb)`;

/**
 * The same table read from a prepared statement's placeholder: the statement is built once
 * (db/prepared.ts) and each call passes its rows as `recordsValue(rows)`.
 */
export const jsonRecordsOf = (placeholder: string): SQL =>
  sql`jsonb_to_recordset(${sql.placeholder(placeholder)}::jsonb)`;

/** A batch's rows as the value of a `jsonRecordsOf` placeholder. */
export const recordsValue = (rows: object[]): string => JSON.stringify(rows);
