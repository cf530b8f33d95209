import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "./testing/run-script";
import { databaseOnly } from "./testing/test-scope";

/**
 * The tools that read or change the portal's database (`backup`, `audit:verify`,
 * `credentials:rotate-key`) pointed at a data directory that holds none: a mistyped DATA_DIR,
 * or the default `./data` of another working directory. Each says so and exits with an
 * error; none makes a new, empty database there and reports on it as if it were the portal's.
 */
// Made only when some test here runs (a skipped file runs no hooks, so none would remove it).
let work = "";
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "credo-cli-data-dir-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.skipIf(databaseOnly)("command-line tools on a data directory without a database", () => {
  it("refuse, naming the directory, and create nothing there", async () => {
    const dataDir = join(work, "no-such-data");
    const cases = [
      { tool: "backup", script: "scripts/backup.ts", args: ["--out", join(work, "out")], code: 1 },
      { tool: "audit:verify", script: "scripts/audit-verify.ts", args: [], code: 2 },
      {
        tool: "credentials:rotate-key",
        script: "scripts/credentials-rotate-key.ts",
        args: [],
        code: 1,
      },
    ];
    for (const { tool, script, args, code } of cases) {
      const result = await runScript(script, args, { DATA_DIR: dataDir });
      expect(result.code, `${tool}: ${result.stdout}`).toBe(code);
      expect(result.stderr, tool).toContain(`No database in ${dataDir}: set DATA_DIR`);
      expect(existsSync(dataDir), tool).toBe(false);
    }
    expect(existsSync(join(work, "out"))).toBe(false);
  }, 180_000);
});
