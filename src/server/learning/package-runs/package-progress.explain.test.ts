import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { nodesOf, type PlanNode, useExplainDatabase } from "../../testing/explain";
import { createPackageProgressRepository } from "./package-progress.repository";

/**
 * Query plans of a package module's learners page, on a throwaway PostgreSQL database filled
 * with generate_series: 200 courses of 100 learners each, and one large course of 5,000
 * learners whose package module most of them launched, some more than once. A page reads the
 * course's enrollments by index and sorts them, then looks up the attempts and completions of
 * its own learners only (joining all 5,000 first scanned every completion: 46 ms, now 8 ms).
 * Plans go to test-results/package-progress-query-plans.txt.
 */
const serverUrl = process.env.TEST_DATABASE_URL;

const LEARNERS = 20_000;
const LARGE = 5_000;
const MODULE = "module_1700000000001";

const FILL = `
      insert into users (id, name, email, role, status, is_registered_by_admin, password_setup, created_at)
      select 'u' || n, 'Learner ' || md5(n::text), 'learner' || n || '@example.com',
        'learner', 'active', true, true, timestamptz '2026-01-01' + n * interval '1 second'
      from generate_series(1, ${LEARNERS}) as n;
      insert into users (id, name, email, role, status, is_registered_by_admin, password_setup)
      values ('admin', 'Admin', 'admin@example.com', 'admin', 'active', false, true);
      insert into courses (id, title, description, category, duration, is_published, created_by)
      select 'c' || n, 'Course ' || n, 'About course ' || n, 'Design', 1, true, 'admin'
      from generate_series(0, 200) as n;
      -- The large course c0, then 100 learners in each other course.
      insert into enrollments (id, user_id, course_id)
      select 'big' || n, 'u' || n, 'c0' from generate_series(1, ${LARGE}) as n;
      insert into enrollments (id, user_id, course_id)
      select 'e' || n, 'u' || n, 'c' || (1 + n % 200) from generate_series(1, ${LEARNERS}) as n;
      -- Four in five of the large course's learners launched its package module; one in ten
      -- was reset once and launched again.
      insert into package_attempts (id, user_id, course_id, module_id, package_id, number,
        completion, success, score_scaled, reported_seconds, seat_seconds, ended_at)
      select 'a1_' || n, 'u' || n, 'c0', '${MODULE}', 'p1', 1, 'completed', 'passed', 0.8, 300, 320,
        case when n % 10 = 0 then now() end
      from generate_series(1, ${LARGE}) as n where n % 5 <> 0;
      insert into package_attempts (id, user_id, course_id, module_id, package_id, number)
      select 'a2_' || n, 'u' || n, 'c0', '${MODULE}', 'p1', 2
      from generate_series(1, ${LARGE}) as n where n % 10 = 0;
      -- Every other course's learners launched its module too.
      insert into package_attempts (id, user_id, course_id, module_id, package_id, number)
      select 'a3_' || n, 'u' || n, 'c' || (1 + n % 200), '${MODULE}', 'p1', 1
      from generate_series(1, ${LEARNERS}) as n;
      insert into module_completions (enrollment_id, module_id)
      select 'big' || n, '${MODULE}' from generate_series(1, ${LARGE}) as n where n % 5 <> 0;
      -- The other courses' learners completed five modules each.
      insert into module_completions (enrollment_id, module_id)
      select 'e' || n, 'module_17000000000' || (10 + k)
      from generate_series(1, ${LEARNERS}) as n, generate_series(1, 5) as k;
    `;

const plansFile = fileURLToPath(
  new URL("../../../../test-results/package-progress-query-plans.txt", import.meta.url),
);

describe.skipIf(!serverUrl)("package module learners page query plans (PostgreSQL)", () => {
  const report: string[] = [];
  const database = useExplainDatabase("credo_package_progress_explain", (pool) => pool.query(FILL));
  const { captured } = database;

  async function planOf(
    label: string,
    input: Parameters<ReturnType<typeof createPackageProgressRepository>["page"]>[0],
  ) {
    captured.length = 0;
    const rows = await createPackageProgressRepository(database.db).page(input);
    expect(captured, `${label}: one statement`).toHaveLength(1);
    const [statement] = captured;
    const explain = (options: string) =>
      database.pool.query(`explain (${options}) ${statement!.sql}`, statement!.params);
    const json = await explain("analyze, format json");
    const plan = (json.rows[0]["QUERY PLAN"] as [{ Plan: PlanNode }])[0].Plan;
    const text = await explain("analyze, costs off, timing off");
    report.push(`=== ${label}`, ...text.rows.map((r) => r["QUERY PLAN"] as string), "");
    return { rows, nodes: nodesOf(plan) };
  }

  const scans = (nodes: PlanNode[], table: string) =>
    nodes.filter((n) => n["Relation Name"] === table).map((n) => n["Node Type"]);

  afterAll(() => {
    mkdirSync(dirname(plansFile), { recursive: true });
    writeFileSync(plansFile, `${report.join("\n")}\n`);
  });

  it.each([
    ["first page by name", { sort: "name" as const }],
    ["first page by email, Z to A", { sort: "-email" as const }],
    ["a search", { sort: "name" as const, q: "learner12" }],
  ])(
    "%s reads the course's enrollments and its learners' attempts by index",
    async (label, options) => {
      const { rows, nodes } = await planOf(label, {
        courseId: "c0",
        moduleId: MODULE,
        limit: 26,
        ...options,
      });
      expect(rows.length).toBeGreaterThan(0);
      for (const table of ["enrollments", "package_attempts", "module_completions"]) {
        expect(scans(nodes, table), `${label}: ${table}`).not.toContain("Seq Scan");
      }
    },
  );

  it("a later page starts after the cursor with the same plan", async () => {
    const first = await planOf("page 1", {
      courseId: "c0",
      moduleId: MODULE,
      sort: "name",
      limit: 26,
    });
    const last = first.rows.at(-1)!;
    const next = await planOf("page 2", {
      courseId: "c0",
      moduleId: MODULE,
      sort: "name",
      limit: 26,
      after: { key: last.sortKey, id: last.userId },
    });
    expect(next.rows[0]!.userId).not.toBe(last.userId);
    expect(scans(next.nodes, "package_attempts")).not.toContain("Seq Scan");
  });
});
