import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { buildApp } from "../app";
import { buildConfig } from "../config";
import { TEST_ADMIN_KEY, type TestContext } from "./test-app";
import { openTestDatabase, resetDatabase } from "./test-database";

/**
 * useTestApp with a watching clock the test moves by hand: watch credit is paced by the
 * wall clock, and a real one makes the figures depend on how fast the machine runs.
 */
export function useWatchingTestApp() {
  const ctx = {} as TestContext;
  let at = Date.parse("2030-01-01T00:00:00Z");
  const clock = {
    now: () => new Date(at),
    advance: (seconds: number) => {
      at += seconds * 1000;
    },
  };
  beforeAll(async () => {
    ctx.database = await openTestDatabase();
    ctx.dataDir = mkdtempSync(join(tmpdir(), "credo-test-"));
    const config = buildConfig({
      NODE_ENV: "test",
      DATA_DIR: ctx.dataDir,
      PUBLIC_URL: "http://localhost:5000",
      ADMIN_SETUP_KEY: TEST_ADMIN_KEY,
      LOG_LEVEL: "silent",
    });
    ctx.app = await buildApp({
      config,
      database: ctx.database,
      adminSetupKey: { key: config.adminSetupKey, generated: false },
      logger: false,
      watchingClock: clock.now,
    });
    await ctx.app.ready();
  });
  beforeEach(async () => {
    await resetDatabase(ctx.database);
  });
  afterAll(async () => {
    await ctx.app?.close();
    await ctx.database?.close();
    if (ctx.dataDir) rmSync(ctx.dataDir, { recursive: true, force: true });
  });
  return { ctx, clock };
}
