import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Instance,
  type OwnPostgres,
  seedCourse,
  startInstance,
  startOwnPostgres,
  tempDir,
  waitForEvent,
} from "./support";

describe("PostgreSQL stopped and started again under load", () => {
  // A cluster of this test's own: the outage must never reach the machine's shared server.
  let postgres: OwnPostgres;
  let app: Instance;
  beforeAll(async () => {
    postgres = await startOwnPostgres();
    app = await startInstance({ DATABASE_URL: postgres.url, DATA_DIR: tempDir() });
  });
  afterAll(async () => {
    try {
      await app?.stop();
    } finally {
      await postgres?.remove();
    }
  });

  it("answers 503 during the outage and recovers without a restart of the portal", async () => {
    const seeded = await seedCourse(app.url, "database outage", 1);
    const statuses = new Map<number, number>();
    const listeners = new Set<(status: number) => void>();
    /** The next answer with this status, from now on. */
    const next = (wanted: number, what: string) =>
      waitForEvent<void>((resolve) => {
        const listener = (status: number) => {
          if (status !== wanted) return;
          listeners.delete(listener);
          resolve();
        };
        listeners.add(listener);
      }, what);
    let running = true;
    const load = (async () => {
      while (running) {
        const r = await seeded.learner.request("GET", "/api/auth/me").catch(() => ({ status: 0 }));
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        for (const listener of [...listeners]) listener(r.status);
      }
    })();

    try {
      await next(200, "a signed-in answer before the outage");
      await postgres.stop();
      await next(503, "a 503 while PostgreSQL is down");
      await postgres.start();
      await next(200, "a signed-in answer once PostgreSQL is back");
    } finally {
      running = false;
      await load;
    }

    // Never a 500 or a dropped connection: 200 before and after, 503 while it was down.
    expect(Object.fromEntries(statuses)).toEqual({
      200: expect.any(Number),
      503: expect.any(Number),
    });
    expect((await fetch(`${app.url}/api/ready`)).status).toBe(200);
    expect(app.process.exitCode).toBeNull();
  });
});
