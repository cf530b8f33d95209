import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { type App, buildApp } from "../app";
import { buildConfig } from "../config";
import type { DatabaseHandle } from "../db/client";
import type { IdentityService } from "../identity/firebase-identity";
import { testPasswords } from "./passwords";
import { openTestDatabase, resetDatabase } from "./test-database";

export const TEST_ADMIN_KEY = "test-admin-setup-key";

export interface TestContext {
  app: App;
  database: DatabaseHandle;
  /** This file's DATA_DIR (local object store under `objects/`), removed afterwards. */
  dataDir: string;
}

export interface TestAppOptions {
  /**
   * The admin key as start-up resolved it; defaults to ADMIN_SETUP_KEY. Pass
   * `{ key, generated: true }` with `ADMIN_SETUP_KEY: ""` to test a generated one-time key.
   */
  adminSetupKey?: { key: string | undefined; generated: boolean };
  /** The identity service to use instead of the config's; read in beforeAll. */
  identity?: () => IdentityService;
  /**
   * Tests write rows straight into the database, as another instance would. On PostgreSQL the
   * caches hear of such a change a moment later, so by default each request first waits for
   * the change feed to catch up (`changes.sync()`), and tests read what they wrote. Tests of
   * the caches themselves turn this off, to see the real timing.
   */
  syncChangesBeforeRequests?: boolean;
  /**
   * The clock of the credit rules (watch credit's pace, exam deadlines, expiry and validity,
   * reminders), when a test moves it by hand.
   */
  clock?: () => Date;
  /** Collects the app's log lines (JSON, level info and up) for tests of what is logged. */
  logLines?: string[];
}

/** The configuration every test app runs with, on its file's data directory. */
const testConfig = (dataDir: string, env: Record<string, string> = {}) =>
  buildConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    PUBLIC_URL: "http://localhost:5000",
    LOG_LEVEL: "silent",
    ...env,
  });

/**
 * One app and one migrated database per test file (PGlite in memory takes ~2 s to
 * create), emptied before each test so tests never depend on each other.
 * An empty string in `env` unsets a default (the config treats "" as unset). `env` may be
 * a function, read in beforeAll: for values known only once another beforeAll ran (S3).
 */
export function useTestApp(
  env: Record<string, string> | (() => Record<string, string>) = {},
  options: TestAppOptions = {},
): TestContext {
  const ctx = {} as TestContext;
  beforeAll(async () => {
    ctx.database = await openTestDatabase();
    ctx.dataDir = mkdtempSync(join(tmpdir(), "credo-test-"));
    const config = testConfig(ctx.dataDir, {
      ADMIN_SETUP_KEY: TEST_ADMIN_KEY,
      ...(typeof env === "function" ? env() : env),
    });
    ctx.app = await buildApp({
      config,
      clock: options.clock,
      database: ctx.database,
      adminSetupKey: options.adminSetupKey ?? { key: config.adminSetupKey, generated: false },
      ...(options.identity ? { identity: options.identity() } : {}),
      logger: options.logLines
        ? { level: "info", stream: { write: (line: string) => options.logLines?.push(line) } }
        : false,
      passwords: testPasswords,
      shedLoad: false,
    });
    if (options.syncChangesBeforeRequests !== false) {
      ctx.app.addHook("onRequest", async () => {
        await ctx.database.changes.sync();
      });
    }
    await ctx.app.ready();
  });
  beforeEach(async () => {
    await resetDatabase(ctx.database);
    await ctx.database.changes.sync();
  });
  afterAll(async () => {
    await ctx.app?.close();
    await ctx.database?.close();
    if (ctx.dataDir) rmSync(ctx.dataDir, { recursive: true, force: true });
  });
  return ctx;
}

/** The session cookie a response set, ready to send back as a Cookie header. */
export function cookieFrom(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === "credo_session");
  if (!cookie) throw new Error(`no session cookie in response ${response.statusCode}`);
  return `credo_session=${cookie.value}`;
}

/**
 * Another instance of the portal on the test file's database, as a second server beside
 * the first would run (or the same one after a restart): built and ready, closed by the caller.
 */
export async function anotherInstance(
  ctx: TestContext,
  options: {
    clock?: () => Date;
    /** Its environment beyond the test defaults. */
    env?: Record<string, string>;
    /** Sheds load as a production portal does (off under test, see app.ts). */
    shedLoad?: boolean;
  } = {},
) {
  const app = await buildApp({
    config: testConfig(ctx.dataDir, options.env),
    database: ctx.database,
    adminSetupKey: { key: undefined, generated: false },
    clock: options.clock,
    passwords: testPasswords,
    logger: false,
    shedLoad: options.shedLoad ?? false,
  });
  await app.ready();
  return app;
}
