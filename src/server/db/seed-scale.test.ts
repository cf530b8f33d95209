import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "../testing/run-script";
import { createScratchDatabase } from "../testing/test-database";
import { type DatabaseHandle, openDatabase, openPostgres } from "./client";

/**
 * `npm run seed:scale` run as a person runs it, at a small size, against the embedded
 * database in a throwaway data directory or, with TEST_DATABASE_URL, a throwaway PostgreSQL
 * database.
 */
const SMALL = ["--learners", "40", "--courses", "6", "--modules", "4", "--enrollments", "120"];
/** What SMALL seeds: 40 learners and the administrator, 6 courses × 4 modules, 120 enrollments. */
const SMALL_COUNTS = { users: 41, courses: 6, modules: 24, enrollments: 120 };

let dataDir: string;
let databaseUrl: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;

function seed(args: string[]) {
  return runScript("scripts/seed-scale.ts", args, {
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
}

/** Opens the seeded database between runs (a data directory takes one process at a time). */
async function inspect<T>(read: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const handle = databaseUrl
    ? await openPostgres(databaseUrl, { poolSize: 3 })
    : await openDatabase({ dataDir });
  try {
    return await read(handle);
  } finally {
    await handle.close();
  }
}

async function rows<T>(handle: DatabaseHandle, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await handle.db.execute(query)) as unknown as { rows: T[] }).rows;
}

const counts = (handle: DatabaseHandle) =>
  rows<{ users: number; courses: number; modules: number; enrollments: number }>(
    handle,
    sql`select (select count(*)::int from users) as users,
      (select count(*)::int from courses) as courses,
      (select count(*)::int from modules) as modules,
      (select count(*)::int from enrollments) as enrollments`,
  ).then((r) => r[0]);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "credo-seed-scale-"));
  if (process.env.TEST_DATABASE_URL) {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL, "credo_seed");
    databaseUrl = scratch.url;
    dropDatabase = scratch.drop;
  }
});

afterAll(async () => {
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm run seed:scale", () => {
  it("fills the schema in batches, with completions consistent with progress", async () => {
    const run = await seed([...SMALL, "--batch", "50"]);
    expect(run.stderr).not.toMatch(/\n\s+at \S.*:\d+:\d+/);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Seeding 40 learners, 6 courses × 4 modules, 120 enrollments/);
    expect(run.stdout).toMatch(/enrollments\s+\[█+\] 120\/120/);

    await inspect(async (handle) => {
      // 40 learners and the administrator; 3 batches of 50 enrollments.
      expect(await counts(handle)).toEqual(SMALL_COUNTS);
      // Every enrollment has exactly the completions its progress says, of its own course's
      // first modules, and is completed exactly when all of them are.
      const mismatched = await rows<{ id: string }>(
        handle,
        sql`select e.id from enrollments e
          left join module_completions mc on mc.enrollment_id = e.id
          left join modules m on m.id = mc.module_id and m.course_id = e.course_id
          group by e.id, e.progress, e.is_completed, e.completed_at
          having count(mc.module_id) <> round(e.progress * 4 / 100.0)
            or count(m.id) <> count(mc.module_id)
            or e.is_completed <> (e.progress = 100)
            or (e.completed_at is not null) <> e.is_completed`,
      );
      expect(mismatched).toEqual([]);
      const stages = await rows<{ stage: string; n: number }>(
        handle,
        sql`select case when is_completed then 'completed' when progress > 0 then 'in progress'
            else 'not started' end as stage, count(*)::int as n
          from enrollments group by 1 order by 1`,
      );
      expect(stages.map((s) => s.stage)).toEqual(["completed", "in progress", "not started"]);
      // No learner is enrolled twice in one course.
      const [duplicates] = await rows<{ n: number }>(
        handle,
        sql`select count(*)::int as n from (select 1 from enrollments
          group by user_id, course_id having count(*) > 1) d`,
      );
      expect(duplicates?.n).toBe(0);
    });
  }, 120_000);

  it("refuses to replace a database that holds real accounts unless --replace says so", async () => {
    await inspect((handle) =>
      handle.db.execute(sql`insert into users (id, name, email, role, status)
        values ('real-person', 'Real Person', 'real.person@example.com', 'learner', 'active')`),
    );
    const refused = await seed(SMALL);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      "the database holds 1 account besides an earlier scale seed. Seeding replaces everything in it; run again with --replace to confirm.",
    );
    await inspect(async (handle) => {
      expect(await counts(handle)).toEqual({ ...SMALL_COUNTS, users: 42 });
    });

    const replaced = await seed([...SMALL, "--learners", "10", "--enrollments", "30", "--replace"]);
    expect(replaced.code).toBe(0);
    await inspect(async (handle) => {
      expect(await counts(handle)).toEqual({ users: 11, courses: 6, modules: 24, enrollments: 30 });
    });
    // A database holding only an earlier seed is replaced without the flag.
    expect((await seed(SMALL)).code).toBe(0);
  }, 120_000);

  it("refuses sizes it cannot seed before touching the database", async () => {
    const mistakes = [
      { args: ["--learners", "0"], says: "--learners must be a positive integer" },
      { args: ["--modules", "2.5"], says: "--modules must be a positive integer" },
      {
        args: ["--learners", "2", "--courses", "3", "--enrollments", "10"],
        says: "--enrollments must be at most learners × courses",
      },
    ];
    const runs = await Promise.all(mistakes.map((m) => seed(m.args)));
    runs.forEach((run, i) => {
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^seed:scale: ${mistakes[i]?.says}`));
    });
    await inspect(async (handle) => {
      expect(await counts(handle)).toEqual(SMALL_COUNTS);
    });
  }, 60_000);
});
