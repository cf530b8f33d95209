import { randomInt } from "node:crypto";
import { sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { createSessionsService } from "../people/auth/sessions.service";
import { SESSION_COOKIE } from "../plugins/sessions";
import { expectErrorBody } from "../testing/errors";
import type { TestContext } from "../testing/test-app";

export { HOSTILE_STRINGS } from "./hostile-strings";

/**
 * Tables a refused request may still touch: a refused sign-in is a counted failure, and
 * every request counts against its rate limit. Everything else must stay as it was.
 */
const COUNTER_TABLES = /^(login_failures|rate_limits?)$/;

export type DatabaseSnapshot = Record<string, string[]>;

/**
 * Every row of every application table (found at run time, so new tables are covered),
 * in a stable order: compare before and after an attack to prove it changed nothing.
 */
export async function snapshotAll(ctx: TestContext): Promise<DatabaseSnapshot> {
  const { db } = ctx.database;
  const tables = rowsOf<{ tablename: string }>(
    await db.execute(
      sql`select tablename from pg_tables where schemaname = 'public' order by tablename`,
    ),
  )
    .map((r) => r.tablename)
    // The chain's head moves with the background linker (see withoutChainLinks).
    .filter((name) => !COUNTER_TABLES.test(name) && name !== "audit_head");
  const snapshot: DatabaseSnapshot = {};
  for (const table of tables) {
    const rows = rowsOf<Record<string, unknown>>(
      await db.execute(sql.raw(`select * from "${table}"`)),
    );
    snapshot[table] = rows.map((row) => JSON.stringify(withoutChainLinks(table, row))).sort();
  }
  return snapshot;
}

/**
 * The audit trail's rows are linked into the hash chain in the background, so their
 * chain columns (and the chain's head, left out) may fill in between two snapshots: what a refused
 * request must not change is which events exist and what they say.
 */
function withoutChainLinks(table: string, row: Record<string, unknown>) {
  if (table !== "audit_events") return row;
  const { seq: _seq, prev_hash: _prev, hash: _hash, ...content } = row;
  return content;
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * Waits for the work a request leaves behind after its commit (a certificate's mail is sent
 * in the background and marks its row): snapshot only after it, so that work is not taken
 * for something an attack recorded.
 */
export async function settleBackgroundWork(ctx: TestContext) {
  await ctx.database.changes.sync();
  await ctx.app.mailJobs.certificateMailsIdle();
}

/** Asserts that nothing but the counters changed since `before`. */
export async function expectUnchanged(ctx: TestContext, before: DatabaseSnapshot, label = "") {
  expect(await snapshotAll(ctx), `database changed ${label}`).toEqual(before);
}

/**
 * A session cookie for a user without going through sign-in (scrypt is slow on purpose):
 * the same session row the login route would create.
 */
export async function sessionCookie(ctx: TestContext, user: { id: string }): Promise<string> {
  const session = await createSessionsService({ db: ctx.database.db }).create({
    userId: user.id,
    persistent: false,
  });
  return `${SESSION_COOKIE}=${session.secret}`;
}

/** An address of its own for a request: per-address limits must not mix tests up. */
export const freshAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** No stack frames, file paths, SQL or internal codes in a body a client sees. */
export function expectNoInternals(body: string) {
  expect(body).not.toMatch(
    /\bat .+\(.+:\d+:\d+\)|node_modules|\/src\/|\.ts:\d+|FST_|ERR_|\bselect .+ from\b|\binsert into\b|\bupdate \S+ set\b|\bdelete from\b|"stack"|syntax error|pglite|postgres/i,
  );
}

/** The answer is a refusal in the API's one error shape, `{ message, code, path? }`. */
export function expectRefusal(response: LightMyRequestResponse, status: number, label = "") {
  expect(response.statusCode, `${label} ${response.body}`).toBe(status);
  expectErrorBody(response, label);
  expectNoInternals(response.body);
}
