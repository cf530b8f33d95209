import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client";
import { openTestDatabase } from "../testing/test-database";
import { pgRateLimitStore } from "./rate-limit-store";

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

  it("is not written to the write-ahead log: a crash only starts the windows again", async () => {
    const result = await database.db.execute(
      sql`select relpersistence from pg_class where relname = 'rate_limits'`,
    );
    const [row] = (result as unknown as { rows: { relpersistence: string }[] }).rows;
    expect(row?.relpersistence).toBe("u");
  });
});
