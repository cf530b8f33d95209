import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  client,
  clientAddress,
  createDatabase,
  type Instance,
  seedCourse,
  startInstance,
  tempDir,
} from "./support";

describe("two instances on one PostgreSQL", () => {
  let db: Awaited<ReturnType<typeof createDatabase>>;
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    db = await createDatabase();
    // Started together: the migration advisory lock lets exactly one of them migrate.
    [a, b] = await Promise.all([
      startInstance({ DATABASE_URL: db.url, DATA_DIR: tempDir() }),
      startInstance({ DATABASE_URL: db.url, DATA_DIR: tempDir() }),
    ]);
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await db?.drop();
  });

  it("shares sessions: sign in on one, work on the other", async () => {
    const seeded = await seedCourse(a.url, "shared sessions", 2);
    const onB = seeded.learner.withBase(b.url);
    const me = await onB.request("GET", "/api/auth/me");
    expect(me.status).toBe(200);
    const progress = await onB.request("POST", "/api/progress/update", {
      userId: seeded.learnerId,
      courseId: seeded.courseId,
      moduleId: seeded.moduleIds[0],
      progress: 0,
    });
    expect(progress.status).toBe(200);
    expect(progress.json.progress).toBe(50);
    // Logging out on A ends the session on B too. B keeps sessions in memory and
    // drops this one when PostgreSQL delivers the sessions trigger's notification at A's
    // commit: milliseconds, not a request later (docs/deploy.md).
    await seeded.learner.request("POST", "/api/auth/logout");
    // B caches sessions for 60 s: refusing the session well inside that time can only be
    // the notification's doing. The poll's timeout guards, far below the cache's lifetime.
    await expect
      .poll(async () => (await onB.request("GET", "/api/auth/me")).status, {
        timeout: 20_000,
        interval: 5,
      })
      .toBe(401);
  });

  it("counts login failures across both instances", async () => {
    const seeded = await seedCourse(a.url, "login failures", 1);
    const ip = clientAddress("login failures on both instances");
    const onA = client(a.url, ip);
    const onB = client(b.url, ip);
    for (let i = 0; i < 10; i++) {
      const target = i % 2 === 0 ? onA : onB;
      const r = await target.request("POST", "/api/auth/login", {
        email: seeded.learnerEmail,
        password: "wrong-password",
      });
      expect(r.status).toBe(401);
    }
    const blocked = await onB.request("POST", "/api/auth/login", {
      email: seeded.learnerEmail,
      password: "learner-pass-1",
    });
    expect(blocked.status).toBe(429);
    const blockedOnA = await onA.request("POST", "/api/auth/login", {
      email: seeded.learnerEmail,
      password: "learner-pass-1",
    });
    expect(blockedOnA.status).toBe(429);
  });
});
