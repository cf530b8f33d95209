import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runScript } from "./testing/run-script";
import { databaseOnly } from "./testing/test-scope";

/**
 * `npm run backup` and `npm run restore` on PostgreSQL (DATABASE_URL): what they print when
 * pg_dump or pg_restore fails, and what a failed restore leaves behind.
 */
const work = mkdtempSync(join(tmpdir(), "credo-backup-restore-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.skipIf(databaseOnly)("backup and restore keep the database password to themselves", () => {
  // Nothing listens on this port: pg_dump and pg_restore fail to connect.
  const password = "s3cret-Pa55word";
  const env = {
    DATABASE_URL: `postgres://credo:${password}@127.0.0.1:47199/credo`,
    DATA_DIR: join(work, "data"),
  };

  it("a failed pg_dump names no password", async () => {
    const backup = await runScript("scripts/backup.ts", ["--out", join(work, "out")], env);
    expect(backup.code).toBe(1);
    expect(backup.stderr).toMatch(/^backup: /m);
    expect(backup.stdout + backup.stderr).not.toContain(password);
  }, 60_000);

  it("a failed pg_restore names no password", async () => {
    const from = join(work, "damaged");
    mkdirSync(from, { recursive: true });
    writeFileSync(join(from, "database.pgdump"), "not a dump");
    const restore = await runScript("scripts/restore.ts", ["--from", from], env);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toMatch(/^restore: /m);
    expect(restore.stdout + restore.stderr).not.toContain(password);
  }, 60_000);
});
