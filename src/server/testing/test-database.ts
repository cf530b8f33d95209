import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { type DatabaseHandle, openPglite, openPostgres } from "../db/client";

/**
 * A migrated database for one test file: PGlite in memory by default, or a throwaway
 * database on the PostgreSQL server named by TEST_DATABASE_URL (dropped on close).
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return openPglite(null);
  const name = `credo_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openPostgres(url.toString(), { poolSize: 5 });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** Empties every application table, keeping the schema: isolates tests that share a database. */
export async function resetDatabase(handle: DatabaseHandle): Promise<void> {
  const result = await handle.db.execute<{ tablename: string }>(
    sql`select tablename from pg_tables where schemaname = 'public'`,
  );
  const rows = (result as unknown as { rows: { tablename: string }[] }).rows;
  const tables = rows.map((r) => `"${r.tablename}"`);
  if (tables.length) await handle.db.execute(sql.raw(`truncate ${tables.join(", ")} cascade`));
}
