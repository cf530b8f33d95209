import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Instance, seedCourse, startInstance, tempDir } from "./support";

describe("a burst of progress updates for one learner", () => {
  let db: Awaited<ReturnType<typeof createDatabase>>;
  let app: Instance;
  beforeAll(async () => {
    db = await createDatabase();
    app = await startInstance({ DATABASE_URL: db.url, DATA_DIR: tempDir() });
  });
  afterAll(async () => {
    await app?.stop();
    await db?.drop();
  });

  it("200 concurrent updates: no 5xx, nothing lost or doubled", async () => {
    const seeded = await seedCourse(app.url, "concurrency", 4);
    // Every module, 50 times each, all at once: locked ones are refused (409) until their
    // turn; repeats are idempotent. Retry the refused ones until the course is complete.
    const body = (moduleId: string) => ({
      userId: seeded.learnerId,
      courseId: seeded.courseId,
      moduleId,
      progress: 100,
    });
    const statuses: number[] = [];
    let pending = seeded.moduleIds.flatMap((id) => Array.from({ length: 50 }, () => id));
    for (let round = 0; round < 10 && pending.length; round++) {
      const results = await Promise.all(
        pending.map(async (id) => ({
          id,
          status: (await seeded.learner.request("POST", "/api/progress/update", body(id))).status,
        })),
      );
      statuses.push(...results.map((r) => r.status));
      pending = [...new Set(results.filter((r) => r.status === 409).map((r) => r.id))];
    }
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(new Set(statuses)).toEqual(new Set([200, 409].filter((s) => statuses.includes(s))));
    const check = new pg.Client({ connectionString: db.url });
    await check.connect();
    const { rows } = await check.query(
      `select e.progress, e.is_completed, (select count(*)::int from module_completions mc where mc.enrollment_id = e.id) as n
       from enrollments e where e.user_id = $1`,
      [seeded.learnerId],
    );
    const stats = await check.query(
      "select enrollments, completions, progress_sum from course_stats",
    );
    await check.end();
    expect(rows).toEqual([{ progress: 100, is_completed: true, n: 4 }]);
    expect(stats.rows).toEqual([{ enrollments: 1, completions: 1, progress_sum: "100" }]);
  });
});
