import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../testing/test-database";
import type { DatabaseHandle } from "./client";
import { createReadCache } from "./read-cache";

/**
 * The cache behind sessions and the course catalogue, against the real change feed
 * of the test database (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */
describe("read cache", () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  const notify = (payload: string) =>
    database.db.execute(sql`select pg_notify('credo_changes', ${payload})`);

  function cacheOfCourses() {
    return createReadCache<{ id: string; version: number }>({
      feed: database.changes,
      tables: ["courses"],
      tagsOf: (value) => [`courses:${value.id}`],
      max: 100,
      ttlMs: 60_000,
    });
  }

  /** A load that counts its calls and answers the current version. */
  function loader() {
    let version = 0;
    let calls = 0;
    return {
      bump: () => {
        version += 1;
      },
      get calls() {
        return calls;
      },
      load: (id: string) => async () => {
        calls += 1;
        return { id, version };
      },
    };
  }

  it("serves a hit from memory and drops it when its row's change is announced", async () => {
    const cache = cacheOfCourses();
    const source = loader();
    expect(await cache.get("c1", source.load("c1"))).toEqual({ id: "c1", version: 0 });
    source.bump();
    expect(await cache.get("c1", source.load("c1"))).toEqual({ id: "c1", version: 0 });
    expect(source.calls).toBe(1);

    await notify("courses:c1");
    await expect.poll(() => cache.get("c1", source.load("c1"))).toEqual({ id: "c1", version: 1 });
    expect(source.calls).toBe(2);
    cache.close();
  });

  it("keeps entries of other rows and other tables, and empties itself on a TRUNCATE", async () => {
    const cache = cacheOfCourses();
    const source = loader();
    await cache.get("a", source.load("a"));
    await cache.get("b", source.load("b"));
    await notify("courses:a");
    await notify("sessions:b");
    await expect.poll(() => cache.size).toBe(1);
    await notify("courses:*");
    await expect.poll(() => cache.size).toBe(0);
    cache.close();
  });

  it("does not store a value that was read while a change arrived", async () => {
    const cache = cacheOfCourses();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const slowLoad = async () => {
      calls += 1;
      await gate;
      return { id: "c1", version: calls };
    };
    const pending = cache.get("c1", slowLoad);
    // The change commits while the read is in flight: what it read may predate it.
    await notify("courses:c1");
    // PostgreSQL delivers the notification on its own connection: wait until it has.
    const probe = createReadCache<{ id: string }>({
      feed: database.changes,
      tables: ["courses"],
      tagsOf: () => ["courses:probe"],
      max: 1,
      ttlMs: 60_000,
    });
    await probe.get("probe", async () => ({ id: "probe" }));
    await notify("courses:probe");
    await expect.poll(() => probe.size).toBe(0);
    release();
    await pending;
    expect(cache.size).toBe(0);
    await cache.get("c1", slowLoad);
    expect(calls).toBe(2);
    probe.close();
    cache.close();
  });

  it("stores a value read while other rows of its table changed, not one read as its table changed", async () => {
    const cache = cacheOfCourses();
    const everyCourse = createReadCache<{ ids: string[] }>({
      feed: database.changes,
      tables: ["courses"],
      tagsOf: () => ["courses"],
      max: 1,
      ttlMs: 60_000,
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const pending = cache.get("c1", async () => {
      await gate;
      return { id: "c1", version: 1 };
    });
    const list = everyCourse.get("all", async () => {
      await gate;
      return { ids: ["c1", "c2"] };
    });
    // Another course changes while both reads are in flight; the notification is delivered
    // when the entry it drops is gone.
    await cache.get("c2", async () => ({ id: "c2", version: 1 }));
    await notify("courses:c2");
    await expect.poll(() => cache.size).toBe(0);
    release();
    await Promise.all([pending, list]);
    // The course read is current; the list may have missed the change, so it is read again.
    expect(cache.size).toBe(1);
    expect(everyCourse.size).toBe(0);
    expect(await cache.get("c1", async () => ({ id: "c1", version: 2 }))).toEqual({
      id: "c1",
      version: 1,
    });
    everyCourse.close();
    cache.close();
  });

  it("loads only the misses of a batch, in one call", async () => {
    const cache = cacheOfCourses();
    const asked: string[][] = [];
    const loadMany = async (ids: string[]) => {
      asked.push(ids);
      return new Map(ids.filter((id) => id !== "gone").map((id) => [id, { id, version: 0 }]));
    };
    await cache.getMany(["a", "b"], loadMany);
    const found = await cache.getMany(["a", "b", "c", "gone", "c"], loadMany);
    expect(asked).toEqual([
      ["a", "b"],
      ["c", "gone"],
    ]);
    expect([...found.keys()].sort()).toEqual(["a", "b", "c"]);
    // A miss is never cached: an unknown key is looked up every time.
    await cache.getMany(["gone"], loadMany);
    expect(asked.at(-1)).toEqual(["gone"]);
    cache.close();
  });

  it("announces this process's own change at once", async () => {
    const cache = cacheOfCourses();
    const source = loader();
    await cache.get("own", source.load("own"));
    database.changes.announce("courses", "own");
    expect(cache.size).toBe(0);
    cache.close();
  });
});
