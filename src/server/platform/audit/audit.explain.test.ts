import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/client";
import { openTestDatabase } from "../../testing/test-database";
import { createAuditRepository } from "./audit.repository";

/**
 * The audit export reads by learner, by course and by time, in pages ordered by seq, and the
 * list on screen also by who acted and what happened, newest first: each must be served by
 * an index at volume (200,000 events), never a sequential scan.
 * Real PostgreSQL only (TEST_DATABASE_URL), like reports.explain.test.ts.
 */
const serverUrl = process.env.TEST_DATABASE_URL;

type Plan = { "Node Type": string; "Index Name"?: string; Plans?: Plan[] };
const nodesOf = (node: Plan): Plan[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

describe.skipIf(!serverUrl)("audit export query plans (PostgreSQL)", () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await openTestDatabase();
    // 2,000 learners x 100 events over 200 courses and ~2 years, most of them the learners'
    // own, one in a hundred an edit by one of 5 administrators; hashes are not checked here.
    await handle.db.execute(sql`
      insert into audit_events (seq, at, actor_id, actor_role, type, learner_id, course_id, details, prev_hash, hash)
      select g, timestamptz '2025-01-01' + (g || ' minutes')::interval,
        case when g % 100 = 0 then 'admin-' || (g / 100 % 5) else 'learner-' || (g % 2000) end,
        case when g % 100 = 0 then 'admin' else 'learner' end,
        case when g % 100 = 0 then 'course.updated' else 'module.completed' end,
        'learner-' || (g % 2000), 'course-' || (g % 200), '{}'::jsonb, 'x', 'x'
      from generate_series(1, 200000) g`);
    // And a few rows waiting for the linker.
    await handle.db.execute(sql`
      insert into audit_events (at, type, details)
      select now(), 'module.completed', '{}'::jsonb from generate_series(1, 5)`);
    await handle.db.execute(sql`analyze audit_events`);
  }, 120_000);

  afterAll(async () => {
    await handle?.close();
  });

  async function plan(
    filter: Parameters<ReturnType<typeof createAuditRepository>["pageQuery"]>[0],
  ) {
    return planOf(createAuditRepository(handle.db).pageQuery(filter, 0, 1000).toSQL());
  }

  async function planOf({ sql: text, params }: { sql: string; params: unknown[] }) {
    const result = await handle.db.execute(
      sql.raw(
        `explain (format json) ${text.replace(/\$(\d+)/g, (_, n) => {
          const value = params[Number(n) - 1];
          return value instanceof Date
            ? `'${value.toISOString()}'`
            : typeof value === "number"
              ? String(value)
              : `'${String(value)}'`;
        })}`,
      ),
    );
    const rows = (result as unknown as { rows: { "QUERY PLAN": [{ Plan: Plan }] }[] }).rows;
    return nodesOf(rows[0]!["QUERY PLAN"][0].Plan);
  }

  it("serves a learner's events from audit_events_learner_idx", async () => {
    const nodes = await plan({ learnerId: "learner-7" });
    expect(nodes.map((n) => n["Index Name"])).toContain("audit_events_learner_idx");
    expect(nodes.map((n) => n["Node Type"])).not.toContain("Seq Scan");
  });

  it("serves a course's events from audit_events_course_idx, in seq order", async () => {
    const nodes = await plan({ courseId: "course-7" });
    expect(nodes.map((n) => n["Index Name"])).toContain("audit_events_course_idx");
    expect(nodes.map((n) => n["Node Type"])).not.toContain("Seq Scan");
  });

  async function listPlan(
    filter: Parameters<ReturnType<typeof createAuditRepository>["newestQuery"]>[0],
    beforeSeq?: number,
  ) {
    return planOf(createAuditRepository(handle.db).newestQuery(filter, beforeSeq, 26).toSQL());
  }

  it.each([
    ["who acted", { actorId: "admin-3" }, "audit_events_actor_idx"],
    ["what happened", { type: "course.updated" as const }, "audit_events_type_idx"],
    ["a course", { courseId: "course-7" }, "audit_events_course_idx"],
    ["a learner", { learnerId: "learner-7" }, "audit_events_learner_idx"],
  ])("serves the list's page by %s from %s, newest first", async (_, filter, index) => {
    for (const beforeSeq of [undefined, 100_000]) {
      const nodes = await listPlan(filter, beforeSeq);
      expect(nodes.map((n) => n["Index Name"])).toContain(index);
      expect(nodes.map((n) => n["Node Type"])).not.toContain("Seq Scan");
      expect(nodes.map((n) => n["Node Type"])).not.toContain("Sort");
    }
  });

  it("serves the list's unfiltered pages, common values and date ranges without a sequential scan", async () => {
    for (const filter of [
      {},
      { from: new Date("2025-02-01"), to: new Date("2025-02-02") },
      { actorId: "learner-7" },
      { type: "module.completed" as const },
      { courseId: "course-7", type: "course.updated" as const },
    ]) {
      const nodes = await listPlan(filter);
      expect(nodes.map((n) => n["Node Type"])).not.toContain("Seq Scan");
      expect(nodes.some((n) => n["Index Name"])).toBe(true);
    }
  });

  it("finds the linker's unlinked rows from audit_events_unlinked_idx", async () => {
    const nodes = await planOf(createAuditRepository(handle.db).unlinkedQuery(1000).toSQL());
    expect(nodes.map((n) => n["Index Name"])).toContain("audit_events_unlinked_idx");
    expect(nodes.map((n) => n["Node Type"])).not.toContain("Seq Scan");
  });

  it("serves a date range without a sequential scan", async () => {
    const nodes = await plan({ from: new Date("2025-02-01"), to: new Date("2025-02-02") });
    expect(nodes.map((n) => n["Node Type"])).not.toContain("Seq Scan");
    expect(nodes.some((n) => n["Index Name"])).toBe(true);
  });
});
