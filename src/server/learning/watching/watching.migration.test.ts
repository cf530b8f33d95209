import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { type MigrationScratch, openMigrationScratch } from "../../testing/migration-scratch";

/**
 * Migration 0031 on a database whose learners have a clock per course: each learner's
 * clocks become one, keeping the time spent in any course spent and the latest heartbeat.
 * PGlite, or a throwaway database on TEST_DATABASE_URL.
 */

const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;

describe("migration 0031 (one watch clock per learner)", () => {
  let scratch: MigrationScratch;
  let db: Database;

  beforeAll(async () => {
    scratch = await openMigrationScratch(31);
    db = scratch.db;
  }, 60_000);

  afterAll(async () => {
    await scratch?.close();
  });

  it("merges each learner's course clocks into one", async () => {
    await scratch.migrateBefore();
    await db.execute(sql`
      insert into users (id, name, email, role) values
        ('u1', 'Ada Two-Courses', 'ada@example.com', 'learner'),
        ('u2', 'Ben One-Course', 'ben@example.com', 'learner')`);
    await db.execute(sql`
      insert into courses (id, title, description, category, duration) values
        ('c1', 'Wound care', 'd', 'Design', 1),
        ('c2', 'Ethics', 'd', 'Development', 1)`);
    await db.execute(sql`
      insert into enrollments (id, user_id, course_id) values
        ('e1', 'u1', 'c1'), ('e2', 'u1', 'c2'), ('e3', 'u2', 'c1')`);
    // Ada's second course spent up to 10:00:05, a second ahead of its last beat (the old
    // tolerance); her first course beat last.
    await db.execute(sql`
      insert into watch_clocks (user_id, course_id, credit_clock_at, last_beat_at) values
        ('u1', 'c1', '2030-01-01T09:00:00Z', '2030-01-01T10:00:06Z'),
        ('u1', 'c2', '2030-01-01T10:00:05Z', '2030-01-01T10:00:04Z'),
        ('u2', 'c1', '2030-01-01T08:00:00Z', '2030-01-01T08:00:10Z')`);

    await scratch.migrateAll();

    const clocks = rows<{ user_id: string; credit_clock_at: string; last_beat_at: string }>(
      await db.execute(sql`select user_id,
          to_char(credit_clock_at at time zone 'UTC', 'HH24:MI:SS') as credit_clock_at,
          to_char(last_beat_at at time zone 'UTC', 'HH24:MI:SS') as last_beat_at
        from watch_clocks order by user_id`),
    );
    expect(clocks).toEqual([
      { user_id: "u1", credit_clock_at: "10:00:05", last_beat_at: "10:00:06" },
      { user_id: "u2", credit_clock_at: "08:00:00", last_beat_at: "08:00:10" },
    ]);
    // One clock per learner from now on, removed with the learner.
    await expect(
      db.execute(
        sql`insert into watch_clocks (user_id, credit_clock_at, last_beat_at) values ('u1', now(), now())`,
      ),
    ).rejects.toThrow();
    await db.execute(sql`delete from users where id = 'u2'`);
    const left = rows<{ user_id: string }>(await db.execute(sql`select user_id from watch_clocks`));
    expect(left).toEqual([{ user_id: "u1" }]);
  });
});
