import { sql } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import type { Database, DatabaseHandle } from "../db/client";
import { openScratchPostgres } from "./test-database";

/**
 * For tests of what one connection does while another holds its locks: a scratch
 * database on the PostgreSQL server named by TEST_DATABASE_URL for the file, opened by the
 * app's own client, with its URL for a second connection of the test's own. Call it inside
 * a `describe.skipIf(!process.env.TEST_DATABASE_URL)`.
 */
export function useScratchPostgres(): { handle: DatabaseHandle; url: string } {
  const scratch = {} as { handle: DatabaseHandle; url: string };
  beforeAll(async () => {
    const opened = await openScratchPostgres(process.env.TEST_DATABASE_URL!, 3);
    scratch.handle = opened;
    scratch.url = opened.url;
  });
  afterAll(async () => {
    await scratch.handle?.close();
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
