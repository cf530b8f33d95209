import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Instance, seedCourse, startInstance } from "./support";

const restartPostgres = () =>
  execFileSync("pg_ctlcluster", ["--skip-systemctl-redirect", "15", "main", "restart"], {
    stdio: "ignore",
  });

describe("PostgreSQL restarted under load", () => {
  let db: Awaited<ReturnType<typeof createDatabase>>;
  let app: Instance;
  beforeAll(async () => {
    db = await createDatabase();
    app = await startInstance({ DATABASE_URL: db.url, DATA_DIR: "/tmp/credo-fault-outage" });
  });
  afterAll(async () => {
    await app?.stop();
    await db?.drop();
  });

  it("answers 503 during the outage and recovers without a restart of the portal", async () => {
    const seeded = await seedCourse(app.url, 1);
    const statuses = new Map<number, number>();
    let running = true;
    const load = (async () => {
      while (running) {
        const r = await seeded.learner.request("GET", "/api/auth/me").catch(() => ({ status: 0 }));
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    restartPostgres();
    await new Promise((r) => setTimeout(r, 2_000));
    running = false;
    await load;
    // Never a 500 or a dropped connection: 200 before and after, 503 while it was down.
    expect([...statuses.keys()].every((s) => s === 200 || s === 503)).toBe(true);
    const deadline = Date.now() + 20_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await seeded.learner.request("GET", "/api/auth/me")).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
    expect((await fetch(`${app.url}/api/ready`)).status).toBe(200);
    expect(app.process.exitCode).toBeNull();
  });
});
