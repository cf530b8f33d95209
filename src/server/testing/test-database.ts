import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import pg from "pg";
import { inject } from "vitest";
import { pgliteChangeFeed } from "../db/change-feed";
import { type DatabaseHandle, openPglite, openPostgres } from "../db/client";

/**
 * An empty database on the PostgreSQL server at `serverUrl`, named `<prefix>_<random>`, for
 * one test file (or fault test); `drop()` removes it even while connections remain.
 */
export async function createScratchDatabase(
  serverUrl: string,
  prefix: string,
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const run = async (...statements: string[]) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}${template ? ` template ${template}` : ""}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // A pool's end() resolves before its connections have said goodbye. A forced drop that
  // reached one of them first would fail it with "terminating connection due to
  // administrator command", an uncaught error in the test's process: so the drop waits (up
  // to five seconds) for them to leave, and forces out only a connection a test leaked.
  const drop = () =>
    run(
      `do $wait$ begin
        for i in 1..250 loop
          exit when not exists (select 1 from pg_stat_activity where datname = '${name}');
          perform pg_sleep(0.02);
          -- A transaction keeps the activity it first read: each look reads it afresh.
          perform pg_stat_clear_snapshot();
        end loop;
      end $wait$`,
      `drop database if exists ${name} with (force)`,
    );
  return { url: url.toString(), drop };
}

/**
 * A migrated database for one test file: PGlite in memory by default, or a throwaway
 * database on the PostgreSQL server named by TEST_DATABASE_URL (dropped on close). Both
 * start from the run's template (global-setup.ts) when there is one.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  return serverUrl ? openScratchPostgres(serverUrl) : reusedPglite();
}

/**
 * A migrated throwaway database on the PostgreSQL server at `serverUrl`, from the run's
 * template, dropped on close; with its URL, for a test's connections of its own.
 */
export async function openScratchPostgres(
  serverUrl: string,
  poolSize = 5,
): Promise<DatabaseHandle & { url: string }> {
  const scratch = await createScratchDatabase(
    serverUrl,
    "credo_test",
    inject("postgresTemplate") ?? undefined,
  );
  const handle = await openPostgres(scratch.url, { poolSize });
  return {
    ...handle,
    url: scratch.url,
    close: async () => {
      await handle.close();
      await scratch.drop();
    },
  };
}

type PgliteHandle = Awaited<ReturnType<typeof openPglite>>;

/**
 * PGlite databases that earlier test files of this worker closed. Loading one from the
 * template takes most of a second, so the next file gets one of these, emptied, with its
 * sequences and settings back at their start and a change feed of its own.
 */
const idlePglites: PgliteHandle[] = [];

async function reusedPglite(): Promise<DatabaseHandle> {
  let base = idlePglites.pop();
  if (base) {
    await resetDatabase(base);
    await base.pglite.exec(
      `reset all; do $restart$ declare s record; begin
        for s in select sequencename from pg_sequences where schemaname = 'public' loop
          execute format('alter sequence %I restart', s.sequencename);
        end loop;
      end $restart$`,
    );
  } else {
    const template = inject("pgliteTemplate");
    base = await openPglite(
      null,
      template ? { loadDataDir: new Blob([readFileSync(template)]) } : {},
    );
  }
  const pooled = base;
  // The previous file's app and caches listened on the old feed: this file's hear only its own.
  const changes = await pgliteChangeFeed(pooled.pglite);
  return {
    ...pooled,
    changes,
    close: async () => {
      await changes.close();
      idlePglites.push(pooled);
    },
  };
}

const tablesByHandle = new WeakMap<DatabaseHandle, string[]>();

/**
 * Empties every application table, keeping the schema: isolates tests that share a database.
 * Rows are deleted with triggers off (the append-only guards of the audit trail and
 * certificates, the statistics counters): a TRUNCATE of every table costs about ten times as
 * much, and this runs before each of a thousand tests. Caches hear that everything changed.
 */
export async function resetDatabase(handle: DatabaseHandle): Promise<void> {
  let tables = tablesByHandle.get(handle);
  if (!tables) {
    const result = await handle.db.execute<{ tablename: string }>(
      sql`select tablename from pg_tables where schemaname = 'public'`,
    );
    const rows = (result as unknown as { rows: { tablename: string }[] }).rows;
    // The content links' secret is kept: an app caches it, as it may (it never changes).
    // The audit chain's head goes last: a linker that created it while the events were being
    // deleted has linked rows this delete waits for, so the head it commits is deleted too
    // (deleted first, a head still uncommitted would outlive the events it names).
    tables = rows
      .map((r) => r.tablename)
      .filter((name) => name !== "content_keys")
      .sort((a, b) => Number(a === "audit_head") - Number(b === "audit_head"))
      .map((name) => `"${name}"`);
    tablesByHandle.set(handle, tables);
  }
  await handle.db.execute(
    sql.raw(`do $reset$ begin
      perform set_config('session_replication_role', 'replica', true);
      ${tables.map((table) => `delete from ${table};`).join(" ")}
      perform pg_notify('credo_changes', '*:*');
    end $reset$`),
  );
}
