import { sql } from "drizzle-orm";
import { afterAll, beforeAll, inject } from "vitest";
import type { Database, DatabaseHandle } from "../db/client";
import { openPostgres } from "../db/client";
import { createScratchDatabase } from "./test-database";

/**
 * For tests of what one connection does while another holds its locks: a migrated scratch
 * database on the PostgreSQL server named by TEST_DATABASE_URL, opened by the app's own
 * client, with its URL for a second connection of the test's own. Dropped after the file.
 * Call it inside a `describe.skipIf(!process.env.TEST_DATABASE_URL)`.
 */
export function useScratchPostgres(): { handle: DatabaseHandle; url: string } {
  const scratch = {} as { handle: DatabaseHandle; url: string };
  let drop: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const created = await createScratchDatabase(
      process.env.TEST_DATABASE_URL!,
      "credo_test",
      inject("postgresTemplate") ?? undefined,
    );
    drop = created.drop;
    scratch.url = created.url;
    scratch.handle = await openPostgres(created.url, { poolSize: 3 });
  });
  afterAll(async () => {
    await scratch.handle?.close();
    await drop();
  });
  return scratch;
}

/** Whether a statement on this database is waiting for a lock another connection holds. */
export async function someoneWaitsForALock(db: Database): Promise<boolean> {
  const result = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`,
  );
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n > 0;
}
