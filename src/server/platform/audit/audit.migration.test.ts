import { asc, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { type MigrationScratch, openMigrationScratch } from "../../testing/migration-scratch";
import { createAuditService } from "./audit.service";
import { auditEvents } from "./audit.table";
import { auditHash, GENESIS_HASH } from "./audit-hash";

/**
 * Migration 0011 on a database that already holds a trail from the schema before it (every
 * row linked at append): the rows keep their seq and hashes, and new appends extend the chain.
 * PGlite, or a throwaway database on TEST_DATABASE_URL.
 */

describe("migration 0011 (audit rows linked asynchronously)", () => {
  let scratch: MigrationScratch;
  let db: Database;

  beforeAll(async () => {
    scratch = await openMigrationScratch(11);
    db = scratch.db;
  }, 60_000);

  afterAll(async () => {
    await scratch?.close();
  });

  it("keeps existing linked rows valid and extends their chain", async () => {
    await scratch.migrateBefore();
    // Three rows as the schema before 0011 wrote them: linked at once, the head moved with them.
    let prev = { seq: 0, hash: GENESIS_HASH };
    for (const i of [1, 2, 3]) {
      const fields = {
        seq: i,
        at: new Date(Date.UTC(2026, 0, i)),
        actorId: "admin-1",
        actorRole: "admin",
        type: "enrollment.created",
        learnerId: `learner-${i}`,
        courseId: "course-1",
        moduleId: null,
        details: { enrollmentId: `enrollment-${i}`, n: i },
        prevHash: prev.hash,
      };
      const hash = auditHash(fields);
      await db.execute(sql`
        insert into audit_events (seq, at, actor_id, actor_role, type, learner_id, course_id, module_id, details, prev_hash, hash)
        values (${i}, ${fields.at.toISOString()}, 'admin-1', 'admin', 'enrollment.created', ${fields.learnerId},
          'course-1', null, ${JSON.stringify(fields.details)}::jsonb, ${prev.hash}, ${hash})`);
      prev = { seq: i, hash };
    }
    await db.execute(
      sql`insert into audit_head (id, seq, hash) values (1, ${prev.seq}, ${prev.hash})`,
    );

    await scratch.migrateAll();

    const audit = createAuditService({ db });
    expect(await audit.verify()).toMatchObject({ ok: true, checked: 3, headSeq: 3, unlinked: 0 });
    const old = await db.select().from(auditEvents).orderBy(asc(auditEvents.seq));
    expect(old.map((r) => [r.id, r.seq])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    // Still append-only.
    await expect(
      db.execute(sql`update audit_events set type = 'x' where seq = 1`),
    ).rejects.toThrow();
    await expect(db.execute(sql`delete from audit_events where seq = 3`)).rejects.toThrow();

    const appended = await db.transaction((tx) =>
      audit.append(tx, { type: "module.completed", actor: null, learnerId: "learner-1" }),
    );
    expect(appended).toMatchObject({ id: 4, seq: null, hash: null });
    expect(await audit.link()).toBe(1);
    const rows = await db.select().from(auditEvents).orderBy(asc(auditEvents.seq));
    expect(rows.map((r) => [r.id, r.seq])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
    ]);
    expect(rows[3]!.prevHash).toBe(prev.hash);
    expect(await audit.verify()).toMatchObject({ ok: true, checked: 4, headSeq: 4, unlinked: 0 });
  });
});
