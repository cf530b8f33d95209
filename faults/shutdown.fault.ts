import { statSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  client,
  clientAddress,
  createDatabase,
  seedCourse,
  startInstance,
  tempDir,
  waitForEvent,
  waitUntil,
} from "./support";

describe("graceful shutdown and crashes", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it("SIGTERM during progress updates: every acknowledged update is stored", async () => {
    const db = await createDatabase();
    cleanups.push(db.drop);
    const app = await startInstance({ DATABASE_URL: db.url, DATA_DIR: tempDir() });
    const seeded = await seedCourse(app.url, "sigterm", 1);
    // Many learners complete module 1 concurrently while the server is told to stop.
    const learners = [];
    for (let i = 0; i < 15; i++) {
      const email = `l${i}@faults.test`;
      const r = await seeded.admin.request("POST", "/api/auth/register", { email, name: `L${i}` });
      const id = String((r.json as { id: string }).id);
      await seeded.admin.request("POST", "/api/enrollments", {
        userId: id,
        courseId: seeded.courseId,
      });
      const c = client(app.url, clientAddress(`sigterm learner ${i}`));
      await c.request("POST", "/api/auth/setup-password", {
        email,
        name: `L${i}`,
        password: "pass-1234",
      });
      learners.push({ id, c });
    }
    const acknowledged: string[] = [];
    // SIGTERM goes out as soon as the first update is answered, with the others in flight.
    let firstAnswer: () => void = () => {};
    const answered = waitForEvent<void>((resolve) => {
      firstAnswer = resolve;
    }, "the first progress update's answer");
    const attempts = learners.map(async ({ id, c }) => {
      const r = await c
        .request("POST", "/api/progress/update", {
          userId: id,
          courseId: seeded.courseId,
          moduleId: seeded.moduleIds[0],
          progress: 0,
        })
        .catch(() => ({ status: 0 }));
      if (r.status === 200) acknowledged.push(id);
      firstAnswer();
      return r.status;
    });
    await answered;
    const exit = app.stop("SIGTERM");
    const statuses = await Promise.all(attempts);
    expect(await exit, app.output()).toBe(0);
    expect(statuses.every((s) => [0, 200, 503].includes(s))).toBe(true);
    const check = new pg.Client({ connectionString: db.url });
    await check.connect();
    const { rows } = await check.query(
      "select user_id from enrollments where course_id = $1 and is_completed",
      [seeded.courseId],
    );
    await check.end();
    const stored = new Set(rows.map((r: { user_id: string }) => r.user_id));
    for (const id of acknowledged) expect(stored.has(id)).toBe(true);
  });

  it("PGlite killed with SIGKILL during writes reopens with acknowledged writes", async () => {
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir };
    const first = await startInstance(env);
    const seeded = await seedCourse(first.url, "sigkill", 1);
    const acknowledged: string[] = [];
    let running = true;
    let enough: () => void = () => {};
    const written = waitForEvent<void>((resolve) => {
      enough = resolve;
    }, "20 acknowledged registrations");
    const writer = (async () => {
      for (let i = 0; running; i++) {
        const email = `k${i}@faults.test`;
        const r = await seeded.admin
          .request("POST", "/api/auth/register", { email, name: `K${i}` })
          .catch(() => ({ status: 0 }));
        if (r.status === 201) acknowledged.push(email);
        if (acknowledged.length >= 20) enough();
      }
    })();
    // Killed mid-stream: after 20 acknowledged writes, with the next one under way.
    await written;
    await first.stop("SIGKILL");
    running = false;
    await writer;
    // The killed process's directory lock goes stale 15 s after its last refresh
    // (src/server/db/client.ts); only then may a new process open the directory.
    const lock = join(dataDir, "db.lock");
    await waitUntil(
      () => Date.now() - statSync(lock).mtimeMs > 15_000,
      "the killed process's lock to go stale",
      30_000,
    );
    const second = await startInstance(env);
    cleanups.push(() => second.stop());
    // Every page of learners: more than one page's worth may have been acknowledged.
    const reader = seeded.admin.withBase(second.url);
    const emails = new Set<string>();
    for (let cursor: string | null = ""; cursor !== null; ) {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const r = await reader.request("GET", `/api/users/learners?limit=100${query}`);
      expect(r.status).toBe(200);
      for (const u of r.json as unknown as { email: string }[]) emails.add(u.email);
      cursor = r.headers.get("x-next-cursor");
    }
    for (const email of acknowledged) expect(emails.has(email)).toBe(true);
  });
});
