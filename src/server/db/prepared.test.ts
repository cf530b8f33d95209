import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../testing/test-database";
import type { DatabaseHandle, Executor } from "./client";
import { preparedOnce } from "./prepared";

/**
 * A hot statement prepared on a transaction is kept for the connection the transaction
 * holds: it must still run in whichever transaction calls it, never in the one it was built
 * in, on PGlite and on PostgreSQL (TEST_DATABASE_URL).
 */
describe("statements prepared once per connection", () => {
  let database: DatabaseHandle;
  let builds = 0;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  /** The transaction's own setting, read by a prepared statement. */
  const probe = (db: Executor) =>
    preparedOnce(db, "prepared_test_probe", (d) => {
      builds += 1;
      return d
        .select({ value: sql<string | null>`current_setting('credo.probe', true)` })
        .from(sql`(values (1)) as one(n)`)
        .prepare("prepared_test_probe");
    });

  /** The connections the transactions ran on (PostgreSQL's backend process ids). */
  const backends = new Set<number>();

  const inTransaction = (value: string) =>
    database.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('credo.probe', ${value}, true)`);
      const pid = await tx.execute(sql`select pg_backend_pid() as pid`);
      backends.add(Number((pid as unknown as { rows: { pid: number }[] }).rows[0]!.pid));
      const [row] = await probe(tx).execute();
      return row?.value;
    });

  it("runs in the transaction that calls it, each time", async () => {
    builds = 0;
    backends.clear();
    expect(await inTransaction("first")).toBe("first");
    expect(await inTransaction("second")).toBe("second");
    expect(await inTransaction("third")).toBe("third");
    // Outside any transaction the setting is gone: nothing leaked from the last one.
    const [outside] = await probe(database.db).execute();
    expect(outside?.value ?? "").toBe("");
    if (database.kind === "postgres") {
      // Built once for each connection the transactions ran on (sequential transactions
      // mostly take the same idle one), and once for the pool.
      expect(builds).toBe(backends.size + 1);
    }
  });

  it("survives a transaction that rolled back", async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await probe(tx).execute();
        throw new Error("rolled back on purpose");
      }),
    ).rejects.toThrow("rolled back on purpose");
    expect(await inTransaction("after")).toBe("after");
  });
});
