import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthRepository } from "./people/auth/auth.repository";
import { runScript } from "./testing/run-script";
import { openScratchPostgres } from "./testing/test-database";
import { databaseOnly } from "./testing/test-scope";

/**
 * `npm run backup` and `npm run restore` on PostgreSQL (DATABASE_URL): what they print when
 * pg_dump or pg_restore fails, and what a failed restore leaves behind.
 */
// Made only when some test here runs (a skipped file runs no hooks, so none would remove it).
let work = "";
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "credo-backup-restore-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.skipIf(databaseOnly)("backup and restore keep the database password to themselves", () => {
  // Nothing listens on this port: pg_dump and pg_restore fail to connect.
  const password = "s3cret-Pa55word";
  const env = () => ({
    DATABASE_URL: `postgres://credo:${password}@127.0.0.1:47199/credo`,
    DATA_DIR: join(work, "data"),
  });

  it("a failed pg_dump names no password", async () => {
    const backup = await runScript("scripts/backup.ts", ["--out", join(work, "out")], env());
    expect(backup.code).toBe(1);
    expect(backup.stderr).toMatch(/^backup: /m);
    expect(backup.stdout + backup.stderr).not.toContain(password);
  }, 60_000);

  it("a failed pg_restore names no password", async () => {
    const from = join(work, "damaged");
    mkdirSync(from, { recursive: true });
    writeFileSync(join(from, "database.pgdump"), "not a dump");
    const restore = await runScript("scripts/restore.ts", ["--from", from], env());
    expect(restore.code).toBe(1);
    expect(restore.stderr).toMatch(/^restore: /m);
    expect(restore.stdout + restore.stderr).not.toContain(password);
  }, 60_000);
});

describe.skipIf(databaseOnly)("a restore of an embedded PGlite backup", () => {
  it("that is damaged says so in one line and leaves the data directory ready to try again", async () => {
    const from = join(work, "damaged-pglite");
    mkdirSync(from, { recursive: true });
    // A copy cut short: the tarball's end is missing.
    const whole = gzipSync(randomBytes(256 * 1024));
    writeFileSync(join(from, "pglite-data.tar.gz"), whole.subarray(0, whole.length / 2));
    const dataDir = join(work, "restored-pglite");
    const restore = await runScript("scripts/restore.ts", ["--from", from], {
      DATA_DIR: dataDir,
    });
    expect(restore.code).toBe(1);
    expect(restore.stderr).toBe(
      `restore: ${join(from, "pglite-data.tar.gz")} is damaged (unexpected end of file)\n`,
    );
    const db = join(dataDir, "db");
    expect(existsSync(db) ? readdirSync(db) : []).toEqual([]);
  }, 60_000);
});

const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)("a restore into PostgreSQL", () => {
  it("is all or nothing: a damaged backup changes nothing, an intact one replaces it all", async () => {
    const source = await openScratchPostgres(serverUrl!, 2);
    const target = await openScratchPostgres(serverUrl!, 2);
    try {
      const learner = (email: string) => ({
        name: "Backed Up",
        email,
        role: "learner" as const,
        status: "active" as const,
        isRegisteredByAdmin: true,
        passwordSetup: false,
      });
      await createAuthRepository(source.db).insertUser(learner("in-backup@example.com"));
      await createAuthRepository(target.db).insertUser(learner("current@example.com"));
      const dir = join(work, "pg-backup");
      const made = await runScript("scripts/backup.ts", ["--out", dir], {
        DATABASE_URL: source.url,
        DATA_DIR: join(work, "source-data"),
      });
      expect(made.code, made.stderr).toBe(0);
      // A password in the URL goes to the tools apart (the server here asks for none).
      const withPassword = new URL(target.url);
      withPassword.password = "not-asked";
      const restore = () =>
        runScript("scripts/restore.ts", ["--from", dir], {
          DATABASE_URL: withPassword.toString(),
          DATA_DIR: join(work, "target-data"),
        });
      // A connection of its own: the handle's pool may hold plans of tables dropped since.
      const emails = async () => {
        const client = new pg.Client({ connectionString: target.url });
        await client.connect();
        try {
          const { rows } = await client.query<{ email: string }>(
            "select email from users order by email",
          );
          return rows.map((r) => r.email);
        } finally {
          await client.end();
        }
      };

      // A copy cut short (a full disk, an interrupted transfer): the table of contents is
      // whole, the data blocks at its end are not.
      const dump = join(dir, "database.pgdump");
      const bytes = readFileSync(dump);
      writeFileSync(dump, bytes.subarray(0, bytes.length - 64));
      const failed = await restore();
      expect(failed.code).toBe(1);
      expect(await emails()).toEqual(["current@example.com"]);
      expect(failed.stderr).toContain("restore: pg_restore failed");

      writeFileSync(dump, bytes);
      const restored = await restore();
      expect(restored.code, restored.stderr).toBe(0);
      expect(await emails()).toEqual(["in-backup@example.com"]);
    } finally {
      await source.close();
      await target.close();
    }
  }, 120_000);
});
