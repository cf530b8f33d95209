import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KeysetCursor } from "../../db/cursor";
import { nodesOf, type PlanNode, useExplainDatabase } from "../../testing/explain";
import { createLearnersRepository } from "./learners.repository";

/**
 * Query plans of the Learners page's one statement, on a throwaway PostgreSQL
 * database filled with generate_series: every page is one statement; it reads the users
 * index in order and stops after the page, or uses the trigram indexes for a rare search;
 * and the prepared statements' generic plans (what a pooled connection runs after five
 * executions) are as good as the custom ones. Plans go to test-results/learners-query-plans.txt.
 */
const serverUrl = process.env.TEST_DATABASE_URL;

const LEARNERS = 20_000;
const COURSES = 200;
const PER_LEARNER = 10;
const PAGE = 26; // a page of 25 and one more, as the service asks

/** Fills the database: learners, courses and enrollments. */
const FILL = `
      insert into users (id, name, email, role, status, is_registered_by_admin, password_setup, created_at)
      values ('admin', 'Admin', 'admin@example.com', 'admin', 'active', false, true, now());
      insert into users (id, name, email, role, status, is_registered_by_admin, password_setup, created_at)
      select 'u' || n, 'Learner ' || n || ' ' || md5(n::text), 'learner' || n || '@example.com',
        'learner', 'active', true, n % 3 = 0,
        -- Every 50 learners share one instant (a bulk import), the rest are a second apart.
        timestamptz '2026-01-01' + (n / 50) * interval '1 minute' + (n % 50 % 7) * interval '1 second'
      from generate_series(1, ${LEARNERS}) as n;
      insert into courses (id, title, description, category, duration, is_published, created_by)
      select 'c' || n, 'Course ' || n, 'About course ' || n, 'Design', 1, true, 'admin'
      from generate_series(1, ${COURSES}) as n;
      insert into enrollments (id, user_id, course_id, progress, is_completed, created_at)
      select 'e' || u || '_' || k, 'u' || u, 'c' || (1 + (u + k * 20) % ${COURSES}),
        ((u * 7 + k * 11) % 6) * 20, ((u * 7 + k * 11) % 6) = 5,
        timestamptz '2026-02-01' + ((u * 13 + k * 7) % 50000) * interval '1 minute'
      from generate_series(1, ${LEARNERS}) as u, generate_series(0, ${PER_LEARNER - 1}) as k;
    `;

const plansFile = fileURLToPath(
  new URL("../../../../test-results/learners-query-plans.txt", import.meta.url),
);

describe.skipIf(!serverUrl)("learners page query plans (PostgreSQL)", () => {
  const report: string[] = [];
  const database = useExplainDatabase("credo_learners_explain", (pool) => pool.query(FILL));
  const { captured } = database;

  /** The statements a page sends, and its rows. */
  async function page(options: Parameters<ReturnType<typeof createLearnersRepository>["page"]>[0]) {
    captured.length = 0;
    const rows = await createLearnersRepository(database.db).page(options);
    return { rows, statements: [...captured] };
  }

  async function plan(label: string, explain: string, params: unknown[], client?: pg.PoolClient) {
    const run = (text: string) => (client ?? database.pool).query(text, params);
    const json = await run(`explain (analyze, format json) ${explain}`);
    const result = (
      json.rows[0]["QUERY PLAN"] as [{ Plan: PlanNode; "Execution Time": number }]
    )[0];
    const text = await run(`explain (analyze, costs off, timing off) ${explain}`);
    report.push(
      `=== ${label} (${result["Execution Time"].toFixed(2)} ms)`,
      ...text.rows.map((r) => r["QUERY PLAN"] as string),
      "",
    );
    return nodesOf(result.Plan);
  }

  /** Users rows read, by any scan of the users table. */
  const usersRead = (nodes: PlanNode[]) =>
    nodes
      .filter((n) => n["Relation Name"] === "users" && n["Node Type"] !== "Bitmap Index Scan")
      .reduce((sum, n) => sum + (n["Actual Rows"] ?? 0) * (n["Actual Loops"] ?? 1), 0);
  const scans = (nodes: PlanNode[], table: string) =>
    nodes.filter((n) => n["Relation Name"] === table).map((n) => n["Node Type"]);
  const indexes = (nodes: PlanNode[]) => nodes.map((n) => n["Index Name"]).filter(Boolean);

  /** The custom plan of the page's single statement, as PostgreSQL runs it for these values. */
  async function customPlan(label: string, options: Parameters<typeof page>[0]) {
    const { rows, statements } = await page(options);
    expect(statements, `${label}: one statement`).toHaveLength(1);
    const [statement] = statements;
    return { rows, nodes: await plan(label, statement!.sql, statement!.params) };
  }

  /** The generic plan a named prepared statement settles on (plan_cache_mode forces it). */
  async function genericPlan(label: string, options: Parameters<typeof page>[0]) {
    const { statements } = await page(options);
    const [statement] = statements;
    const client = await database.pool.connect();
    try {
      await client.query("set plan_cache_mode = force_generic_plan");
      await client.query(`prepare generic_page as ${statement!.sql}`);
      // EXECUTE takes its arguments as literals (it is not itself a parameterized statement).
      const args = statement!.params
        .map((value) =>
          typeof value === "number"
            ? String(value)
            : client.escapeLiteral(Array.isArray(value) ? `{${value.join(",")}}` : String(value)),
        )
        .join(", ");
      return await plan(`${label} (generic plan)`, `execute generic_page(${args})`, [], client);
    } finally {
      await client.query("deallocate generic_page; reset plan_cache_mode");
      client.release();
    }
  }

  async function cursorAt(offset: number): Promise<KeysetCursor> {
    const { rows } = await database.pool.query(
      `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "createdAt", id
       from users where role = 'learner' order by created_at desc, id desc offset $1 limit 1`,
      [offset],
    );
    return rows[0] as KeysetCursor;
  }

  beforeAll(() => {
    report.push(
      `Learners page plans — ${LEARNERS} learners, ${COURSES} courses, ${LEARNERS * PER_LEARNER} enrollments`,
      "(generated by src/server/administration/learners/learners.explain.test.ts)",
      "",
    );
  });

  afterAll(async () => {
    if (report.length) {
      mkdirSync(dirname(plansFile), { recursive: true });
      writeFileSync(plansFile, `${report.join("\n")}\n`);
    }
  });

  it("the first page reads one page of the users index, and each learner's enrollments by index", async () => {
    const { rows, nodes } = await customPlan("first page", { limit: PAGE });
    expect(rows).toHaveLength(PAGE);
    expect(indexes(nodes)).toContain("users_role_created_idx");
    expect(usersRead(nodes)).toBe(PAGE);
    expect(scans(nodes, "enrollments")).not.toContain("Seq Scan");
    expect(nodes.map((n) => n["Node Type"])).not.toContain("Sort");
  });

  it("a deep page starts at the cursor in the index", async () => {
    const { rows, nodes } = await customPlan("deep page", {
      limit: PAGE,
      after: await cursorAt(LEARNERS - 100),
    });
    expect(rows).toHaveLength(PAGE);
    expect(usersRead(nodes)).toBe(PAGE);
    expect(nodes.map((n) => n["Node Type"])).not.toContain("Sort");
  });

  it("the prepared statements' generic plans read the index in order too", async () => {
    for (const [label, options] of [
      ["first page", { limit: PAGE }],
      ["deep page", { limit: PAGE, after: await cursorAt(LEARNERS / 2) }],
    ] as const) {
      const nodes = await genericPlan(label, options);
      // Without the constant bound the planner expects 10% of all learners (2,000 here), and at
      // 100,000 learners it reads them with a sequential scan and a sort.
      const expected = nodes.filter((n) => n["Node Type"] === "Limit").map((n) => n["Plan Rows"]);
      expect(Math.max(...(expected as number[])), label).toBeLessThanOrEqual(101);
      expect(scans(nodes, "users"), label).toEqual(["Index Scan"]);
      expect(usersRead(nodes), label).toBe(PAGE);
      expect(
        nodes.map((n) => n["Node Type"]),
        label,
      ).not.toContain("Sort");
    }
  });

  it("a search matching everyone stops after the page", async () => {
    for (const q of ["example.com", "a"]) {
      const { rows, nodes } = await customPlan(`q=${q}`, { limit: PAGE, q });
      expect(rows).toHaveLength(PAGE);
      expect(usersRead(nodes), q).toBeLessThanOrEqual(PAGE + 1);
    }
  });

  it("the search index's candidates are read by primary key, in the generic plan too", async () => {
    const among = Array.from({ length: PAGE }, (_, i) => `u${10_000 + i * 37}`);
    for (const [label, options] of [
      ["candidates", { limit: PAGE, q: "learner", among }],
      [
        "candidates after a cursor",
        { limit: PAGE, q: "learner", among, after: await cursorAt(100) },
      ],
    ] as const) {
      const custom = await customPlan(label, options);
      const generic = await genericPlan(label, options);
      for (const nodes of [custom.nodes, generic]) {
        expect(indexes(nodes), label).toContain("users_pkey");
        expect(indexes(nodes), label).not.toContain("users_email_trgm_idx");
        expect(scans(nodes, "users"), label).not.toContain("Seq Scan");
        expect(usersRead(nodes), label).toBeLessThanOrEqual(PAGE);
      }
    }
  });

  it("a search matching one learner or none uses the trigram indexes", async () => {
    for (const [q, found] of [
      ["learner12345@", 1],
      ["zzzz", 0],
      ["nobody-matches-this", 0],
    ] as const) {
      const { rows, nodes } = await customPlan(`q=${q}`, { limit: PAGE, q });
      expect(rows, q).toHaveLength(found);
      expect(indexes(nodes), q).toEqual(
        expect.arrayContaining(["users_name_trgm_idx", "users_email_trgm_idx"]),
      );
      expect(scans(nodes, "users"), q).not.toContain("Seq Scan");
    }
  });
});
