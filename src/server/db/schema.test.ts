import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = new URL("../../..", import.meta.url).pathname;
const migrations = join(root, "src/server/db/migrations");

/**
 * `npm run db:generate` writes a feature's new tables as a migration by comparing the
 * tables in `schema.ts` with the last snapshot in `migrations/meta`. When a migration is
 * written by hand, its snapshot must follow, or the next generated migration would repeat
 * it: generating from the tables as they are must find nothing to do.
 */
describe("the migrations' snapshot", () => {
  const scratch = mkdtempSync(join(tmpdir(), "credo-snapshot-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("holds every table as the features declare it", { timeout: 120_000 }, async () => {
    const out = join(scratch, "migrations");
    cpSync(migrations, out, { recursive: true });
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        join(root, "node_modules/drizzle-kit/bin.cjs"),
        "generate",
        "--dialect=postgresql",
        "--schema=./src/server/db/schema.ts",
        // drizzle-kit reads the folder relative to the working directory.
        `--out=${relative(root, out)}`,
      ],
      { cwd: root },
    );
    expect(stdout).toContain("No schema changes");
    expect(readdirSync(out).filter((f) => f.endsWith(".sql"))).toEqual(
      readdirSync(migrations).filter((f) => f.endsWith(".sql")),
    );
  });
});
