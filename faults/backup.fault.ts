import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDatabase, seedCourse, startInstance, tempDir } from "./support";

const root = new URL("..", import.meta.url).pathname;
const run = (script: string, args: string[], env: Record<string, string>) =>
  execFileSync(
    process.execPath,
    [join(root, "node_modules/tsx/dist/cli.mjs"), join(root, script), ...args],
    {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: "warn", ...env },
      stdio: "pipe",
    },
  ).toString();

/** Reads back what seedCourse made, through the restored portal. */
async function expectRestored(baseUrl: string, seeded: Awaited<ReturnType<typeof seedCourse>>) {
  const learner = seeded.learner.withBase(baseUrl);
  const enrollments = await learner.request("GET", `/api/enrollments/user/${seeded.learnerId}`);
  expect(enrollments.status).toBe(200);
  const list = enrollments.json as unknown as {
    courseId: string;
    course: { modules: { videoUrl: string }[] };
  }[];
  expect(list.map((e) => e.courseId)).toEqual([seeded.courseId]);
  const video = await fetch(`${baseUrl}${list[0]!.course.modules[0]!.videoUrl}`, {
    headers: { cookie: learner.cookie, range: "bytes=0-15" },
  });
  expect(video.status).toBe(206);
}

describe("npm run backup / npm run restore round trips", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it.each([
    ["the embedded PostgreSQL server", "postgres"],
    ["embedded PGlite", "pglite"],
  ])("%s with its objects", async (_name, engine) => {
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir, EMBEDDED_DATABASE: engine };
    const app = await startInstance(env);
    const seeded = await seedCourse(app.url, `backup ${engine}`, 1);
    await app.stop();
    const backup = join(tempDir(), "backup");
    const made = run("scripts/backup.ts", ["--out", backup], env);
    expect(made).toContain(engine === "postgres" ? "embedded PostgreSQL" : "PGlite");
    const restoredDir = tempDir();
    run("scripts/restore.ts", ["--from", backup], { DATA_DIR: restoredDir });
    // The restored directory keeps its engine with no setting: the default finds it.
    const restored = await startInstance({ DATA_DIR: restoredDir });
    cleanups.push(() => restored.stop());
    expect(restored.output()).toContain(
      engine === "postgres" ? "embedded PostgreSQL in" : "embedded PGlite in",
    );
    await expectRestored(restored.url, seeded);
  });

  it("PostgreSQL with local objects", async () => {
    const source = await createDatabase();
    const target = await createDatabase();
    cleanups.push(source.drop, target.drop);
    const dataDir = tempDir();
    const app = await startInstance({ DATABASE_URL: source.url, DATA_DIR: dataDir });
    cleanups.push(() => app.stop());
    const seeded = await seedCourse(app.url, "backup postgres", 1);
    const backup = join(tempDir(), "backup");
    // Taken while the portal runs: pg_dump is a consistent snapshot.
    run("scripts/backup.ts", ["--out", backup], { DATABASE_URL: source.url, DATA_DIR: dataDir });
    const restoredDir = tempDir();
    run("scripts/restore.ts", ["--from", backup], {
      DATABASE_URL: target.url,
      DATA_DIR: restoredDir,
    });
    const restored = await startInstance({ DATABASE_URL: target.url, DATA_DIR: restoredDir });
    cleanups.push(() => restored.stop());
    await expectRestored(restored.url, seeded);
  });
});
