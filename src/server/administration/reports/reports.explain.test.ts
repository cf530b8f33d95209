import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KeysetCursor } from "../../db/cursor";
import { createEnrollmentsRepository } from "../../learning/enrollments/enrollments.repository";
import { nodesOf, type PlanNode, useExplainDatabase } from "../../testing/explain";
import { createLearnersRepository } from "../learners/learners.repository";
import { createReportsRepository } from "./reports.repository";

/**
 * Query plans of the reports aggregates and of the paged lists ("EXPLAIN of each
 * aggregate shows index use"). It runs the repositories' own queries, captured through a
 * Drizzle logger, against a throwaway PostgreSQL database filled with generate_series,
 * and writes every plan to test-results/query-plans.txt. Real PostgreSQL only: PGlite's
 * planner is the same code, but the volume would make the suite slow.
 */
const serverUrl = process.env.TEST_DATABASE_URL;

/** EXPLAIN_SCALE=5 gives the 100,000 learners and 1,000,000 enrollments (~1 min). */
const SCALE = Math.max(1, Number(process.env.EXPLAIN_SCALE ?? 1));
const LEARNERS = 20_000 * SCALE;
const COURSES = 200 * SCALE;
const PER_LEARNER = 10; // 200,000 enrollments
const PAGE = 26; // a page of 25 and one more, as the services ask

/** Fills the database: learners, courses of five modules, enrollments and completions. */
const FILL = `
      insert into users (id, name, email, role, status, is_registered_by_admin, password_setup, created_at)
      values ('admin', 'Admin', 'admin@example.com', 'admin', 'active', false, true, now());
      insert into users (id, name, email, role, status, is_registered_by_admin, password_setup, created_at)
      select 'u' || n, 'Learner ' || n || ' ' || md5(n::text), 'learner' || n || '@example.com',
        'learner', case when n % 10 = 0 then 'restricted' else 'active' end, true, n % 3 = 0,
        -- Every 50 learners share one instant (a bulk import), the rest are a second apart.
        timestamptz '2026-01-01' + (n / 50) * interval '1 minute' + (n % 50 % 7) * interval '1 second'
      from generate_series(1, ${LEARNERS}) as n;
      insert into courses (id, title, description, category, duration, is_published, created_by, created_at)
      select 'c' || n, 'Course ' || n, 'About course ' || n,
        (array['Development', 'Database', 'Mobile', 'Design'])[1 + n % 4], 1 + n % 10, true, 'admin',
        timestamptz '2025-06-01' + n * interval '1 hour'
      from generate_series(1, ${COURSES}) as n;
      insert into modules (course_id, id, position, title, duration, video_url)
      select 'c' || c, 'module_' || (1700000000000 + c * 10 + m), m, 'Module ' || m, 5,
        '/objects/uploads/AAAAAAAAAAAAAAAAAAAAAAAA'
      from generate_series(1, ${COURSES}) as c, generate_series(1, 5) as m;
      insert into enrollments (id, user_id, course_id, progress, is_completed, completed_at, created_at)
      select 'e' || u || '_' || k, 'u' || u, 'c' || (1 + (u + k * 20) % ${COURSES}),
        p.progress, p.progress = 100,
        case when p.progress = 100 then timestamptz '2026-06-01' + ((u * 37 + k) % 100000) * interval '1 minute' end,
        timestamptz '2026-02-01' + ((u * 13 + k * 7) % 50000) * interval '1 minute'
      from generate_series(1, ${LEARNERS}) as u, generate_series(0, ${PER_LEARNER - 1}) as k,
        lateral (select ((u * 7 + k * 11) % 6) * 20 as progress) as p;
      insert into module_completions (enrollment_id, module_id, completed_at)
      select e.id, 'module_' || (1700000000000 + substr(e.course_id, 2)::int * 10 + m), now()
      from enrollments e, generate_series(1, 5) as m
      where m <= e.progress / 20;
    `;

const plansFile = fileURLToPath(
  new URL("../../../../test-results/query-plans.txt", import.meta.url),
);

const INDEX_NODES = new Set(["Index Scan", "Index Only Scan", "Bitmap Index Scan"]);

describe.skipIf(!serverUrl)("query plans at volume (PostgreSQL)", () => {
  const report: string[] = [];
  const summary: string[] = [];
  let filledIn = 0;
  const database = useExplainDatabase("credo_explain", async (pool) => {
    const started = Date.now();
    await pool.query(FILL);
    filledIn = Date.now() - started;
  });
  const { captured } = database;

  /** Runs a repository call and answers the SQL statements it sent. */
  async function capture(run: () => Promise<unknown>) {
    captured.length = 0;
    await run();
    return [...captured];
  }

  async function explain(label: string, run: () => Promise<unknown>) {
    const statements = await capture(run);
    expect(statements.length, label).toBeGreaterThan(0);
    const plans = [];
    for (const statement of statements) {
      const result = await database.pool.query(
        `explain (analyze, buffers, format json) ${statement.sql}`,
        statement.params,
      );
      const plan = (
        result.rows[0]["QUERY PLAN"] as [{ Plan: PlanNode; "Execution Time": number }]
      )[0];
      const text = await database.pool.query(
        `explain (analyze, costs off) ${statement.sql}`,
        statement.params,
      );
      report.push(
        `=== ${label} (${plan["Execution Time"].toFixed(2)} ms)`,
        statement.sql,
        `params: ${JSON.stringify(statement.params)}`,
        ...text.rows.map((r) => r["QUERY PLAN"] as string),
        "",
      );
      const nodes = nodesOf(plan.Plan);
      const access = nodes
        .filter((n) => n["Relation Name"] || n["Index Name"])
        .map((n) => `${n["Node Type"]} ${n["Index Name"] ?? n["Relation Name"]}`);
      summary.push(
        `${label.padEnd(34)} ${plan["Execution Time"].toFixed(2).padStart(8)} ms  ${[...new Set(access)].join(", ")}`,
      );
      plans.push(nodes);
    }
    return plans.flat();
  }

  /** A keyset page reads its rows in index order: no sort, so its cost is the page size. */
  function expectNoSort(label: string, nodes: PlanNode[]) {
    expect(
      nodes.map((n) => n["Node Type"]),
      `${label}: sorted instead of read in index order`,
    ).not.toContain("Sort");
  }

  function expectIndexed(label: string, nodes: PlanNode[], bigTables: string[]) {
    expect(
      nodes.some((n) => INDEX_NODES.has(n["Node Type"])),
      `${label}: no index used`,
    ).toBe(true);
    const seq = nodes.filter(
      (n) => n["Node Type"] === "Seq Scan" && bigTables.includes(n["Relation Name"] ?? ""),
    );
    expect(
      seq.map((n) => n["Relation Name"]),
      `${label}: sequential scan`,
    ).toEqual([]);
  }

  beforeAll(() => {
    report.push(
      `Query plans — ${LEARNERS} learners, ${COURSES} courses, ${LEARNERS * PER_LEARNER} enrollments`,
      `(generated by src/server/administration/reports/reports.explain.test.ts; filled in ${filledIn} ms)`,
      "",
    );
  });

  afterAll(async () => {
    mkdirSync(dirname(plansFile), { recursive: true });
    if (report.length) {
      const [title, source, blank] = report;
      const body = report.slice(3);
      const text = [title, source, blank, "Summary:", ...summary, "", ...body].join("\n");
      writeFileSync(plansFile, `${text}\n`);
    }
  });

  it("has the volume it claims", async () => {
    const { rows } = await database.pool.query(
      "select (select count(*) from enrollments)::int as e, (select count(*) from users)::int as u",
    );
    expect(rows[0]).toEqual({ e: LEARNERS * PER_LEARNER, u: LEARNERS + 1 });
  });

  describe("reports aggregates (reports.repository.ts)", () => {
    const reports = () => createReportsRepository(database.db);

    /** Totals come from course_stats (kept by triggers): no plan may read enrollments. */
    function expectNoEnrollmentScan(label: string, nodes: PlanNode[]) {
      expect(
        nodes.filter((n) => n["Relation Name"] === "enrollments").map((n) => n["Node Type"]),
        `${label}: reads enrollments`,
      ).toEqual([]);
    }

    it("overall(): totals, completions and average progress", async () => {
      const nodes = await explain("reports.overall", () => reports().overall());
      expectNoEnrollmentScan("reports.overall", nodes);
      // Learner counts come from user_stats (kept by triggers): users is not read.
      expect(
        nodes.filter((n) => n["Relation Name"] === "users").map((n) => n["Node Type"]),
        "reports.overall: reads users",
      ).toEqual([]);
    });

    it("user_stats matches a full count of users", async () => {
      const { rows } = await database.pool.query(`
        select count(*)::int as mismatches from (
          select role, status, count(*) as n from users group by role, status) u
        full join user_stats s using (role, status)
        where coalesce(u.n, 0) <> coalesce(s.users, 0)`);
      expect(rows[0]).toEqual({ mismatches: 0 });
    });

    it("perCourse(): per-course figures, most enrolled first", async () => {
      const nodes = await explain("reports.perCourse", () => reports().perCourse());
      expectNoEnrollmentScan("reports.perCourse", nodes);
    });

    it("course_stats matches a full aggregate of enrollments", async () => {
      const { rows } = await database.pool.query(`
        select count(*)::int as mismatches from (
          select course_id, count(*) as n, count(*) filter (where is_completed) as c, sum(progress) as p
          from enrollments group by course_id) e
        full join course_stats s using (course_id)
        where coalesce(e.n, 0) <> coalesce(s.enrollments, 0)
           or coalesce(e.c, 0) <> coalesce(s.completions, 0)
           or coalesce(e.p, 0) <> coalesce(s.progress_sum, 0)`);
      expect(rows[0]).toEqual({ mismatches: 0 });
    });

    it("recentCompletions(10): newest first", async () => {
      const nodes = await explain("reports.recentCompletions", () =>
        reports().recentCompletions(10),
      );
      expectIndexed("reports.recentCompletions", nodes, ["enrollments", "users"]);
      expectNoSort("reports.recentCompletions", nodes);
    });
  });

  describe("learners page (learners.repository.ts)", () => {
    const learners = () => createLearnersRepository(database.db);

    async function cursorAt(offset: number): Promise<KeysetCursor> {
      const { rows } = await database.pool.query(
        `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "createdAt", id
         from users where role = 'learner' order by created_at desc, id desc offset $1 limit 1`,
        [offset],
      );
      return rows[0] as KeysetCursor;
    }

    it("page(): the first page", async () => {
      const nodes = await explain("learners.page first", () => learners().page({ limit: PAGE }));
      expectIndexed("learners.page first", nodes, ["users"]);
      expectNoSort("learners.page first", nodes);
    });

    it("page(): a deep page after a cursor", async () => {
      const after = await cursorAt(LEARNERS / 2);
      const nodes = await explain("learners.page deep", () =>
        learners().page({ limit: PAGE, after }),
      );
      expectIndexed("learners.page deep", nodes, ["users"]);
      expectNoSort("learners.page deep", nodes);
      const rows = await learners().page({ limit: PAGE, after });
      expect(rows).toHaveLength(PAGE);
    });

    it("page(): a narrow search (one learner)", async () => {
      const nodes = await explain("learners.page q=narrow", () =>
        learners().page({ limit: PAGE, q: "learner12345@" }),
      );
      expectIndexed("learners.page q=narrow", nodes, ["users"]);
    });

    it("page(): a broad search (every learner matches)", async () => {
      const nodes = await explain("learners.page q=broad", () =>
        learners().page({ limit: PAGE, q: "example" }),
      );
      expectIndexed("learners.page q=broad", nodes, ["users"]);
      expectNoSort("learners.page q=broad", nodes);
    });
    // The page with each learner's figures is one statement: learners.explain.test.ts.
  });

  describe("enrollments list (enrollments.repository.ts)", () => {
    const enrollments = () => createEnrollmentsRepository(database.db);

    it("page(): the first page", async () => {
      const nodes = await explain("enrollments.page first", () =>
        enrollments().page({ limit: PAGE }),
      );
      expectIndexed("enrollments.page first", nodes, ["enrollments"]);
      expectNoSort("enrollments.page first", nodes);
    });

    it("page(): a deep page after a cursor", async () => {
      const { rows } = await database.pool.query(
        `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "createdAt", id
         from enrollments order by created_at desc, id desc offset $1 limit 1`,
        [(LEARNERS * PER_LEARNER) / 2],
      );
      const after = rows[0] as KeysetCursor;
      const nodes = await explain("enrollments.page deep", () =>
        enrollments().page({ limit: PAGE, after }),
      );
      expectIndexed("enrollments.page deep", nodes, ["enrollments"]);
      expectNoSort("enrollments.page deep", nodes);
    });

    it("completedModuleIds() and listByUserWithCompletions(): a page's completions, a learner's courses", async () => {
      const ids = (await enrollments().page({ limit: 25 })).map((e) => e.id);
      const completions = await explain("enrollments.completedModuleIds", () =>
        enrollments().completedModuleIds(ids),
      );
      expectIndexed("enrollments.completedModuleIds", completions, ["module_completions"]);
      const mine = await explain("enrollments.listByUserWithCompletions", () =>
        enrollments().listByUserWithCompletions("u777"),
      );
      expectIndexed("enrollments.listByUserWithCompletions", mine, [
        "enrollments",
        "module_completions",
      ]);
    });
  });
});
