import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client";
import { someoneWaitsForALock, useScratchPostgres } from "../testing/scratch-postgres";
import { openTestDatabase } from "../testing/test-database";
import { pgRateLimitStore, sweepExpiredCounts } from "./rate-limit-store";

const serverUrl = process.env.TEST_DATABASE_URL;

/** The shared request counters, against the test database (PGlite, or PostgreSQL). */
describe("rate limit counters", () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  function counter() {
    const Store = pgRateLimitStore(database.db);
    const store = new Store();
    return (key: string, windowMs = 60_000) =>
      new Promise<{ current: number; ttl: number }>((resolve, reject) =>
        store.incr(key, (err, result) => (err ? reject(err) : resolve(result!)), windowMs),
      );
  }

  it("gives each of many simultaneous requests its own place in its key's window", async () => {
    const incr = counter();
    const [a, b] = await Promise.all([
      Promise.all(Array.from({ length: 40 }, () => incr("a"))),
      Promise.all(Array.from({ length: 25 }, () => incr("b"))),
    ]);
    expect(a.map((r) => r.current).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    expect(b.map((r) => r.current).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
    for (const r of [...a, ...b]) {
      expect(r.ttl).toBeGreaterThan(50_000);
      expect(r.ttl).toBeLessThanOrEqual(60_000);
    }
    // A second instance counts the same window.
    expect((await counter()("a")).current).toBe(41);
  });

  it("starts a window again once it has passed, with the new request's length", async () => {
    const incr = counter();
    await Promise.all([incr("c"), incr("c"), incr("c")]);
    await database.db.execute(sql`update rate_limits set reset_at = now() - interval '1 second'
      where key = 'c'`);
    const again = await Promise.all([incr("c", 1_000), incr("c", 1_000)]);
    expect(again.map((r) => r.current).sort()).toEqual([1, 2]);
    expect(Math.max(...again.map((r) => r.ttl))).toBeLessThanOrEqual(1_000);
  });

  it("sweeps the counters whose window has passed, and only those", async () => {
    await database.db.execute(sql`insert into rate_limits (key, count, reset_at) values
      ('old', 3, now() - interval '1 second'), ('current', 2, now() + interval '1 minute')`);
    await sweepExpiredCounts(database.db);
    const result = await database.db.execute(
      sql`select key from rate_limits where key in ('old', 'current')`,
    );
    expect((result as unknown as { rows: unknown[] }).rows).toEqual([{ key: "current" }]);
  });

  it("is not written to the write-ahead log: a crash only starts the windows again", async () => {
    const result = await database.db.execute(
      sql`select relpersistence from pg_class where relname = 'rate_limits'`,
    );
    const [row] = (result as unknown as { rows: { relpersistence: string }[] }).rows;
    expect(row?.relpersistence).toBe("u");
  });
});

/**
 * The sweep of expired counters beside the writes of other instances and requests, which
 * lock their counters in key order: the sweep must never wait for one of them (it used to,
 * holding others in the table's order, and PostgreSQL broke the deadlock by failing the
 * write: requests of a busy portal answered 500).
 */
describe.skipIf(!serverUrl)("rate limit counters swept beside writes (PostgreSQL)", () => {
  const scratch = useScratchPostgres();

  it("deletes the expired counters no write holds, without waiting for those one does", async () => {
    await scratch.handle.db.execute(sql`insert into rate_limits (key, count, reset_at) values
      ('a', 1, now() - interval '1 minute'), ('b', 1, now() - interval '1 minute'),
      ('c', 1, now() + interval '1 minute')`);
    // A write under way (another instance's batch of counts) holds 'b'.
    const writer = new pg.Client({ connectionString: scratch.url });
    await writer.connect();
    try {
      await writer.query("begin");
      await writer.query("update rate_limits set count = count + 1 where key = 'b'");
      let swept = false;
      const sweep = sweepExpiredCounts(scratch.handle.db).then(() => {
        swept = true;
      });
      while (!swept && !(await someoneWaitsForALock(scratch.handle.db))) await sleep(5);
      expect(swept).toBe(true);
      await sweep;
      // The write goes on and counts 'a' too: no deadlock, the expired window started again.
      await writer.query(`insert into rate_limits (key, count, reset_at)
        values ('a', 1, now() + interval '1 minute')
        on conflict (key) do update set count = rate_limits.count + 1`);
      await writer.query("commit");
    } finally {
      await writer.end();
    }
    const result = await scratch.handle.db.execute(
      sql`select key, count from rate_limits order by key`,
    );
    expect((result as unknown as { rows: unknown[] }).rows).toEqual([
      { key: "a", count: 1 },
      { key: "b", count: 2 },
      { key: "c", count: 1 },
    ]);
  });
});
