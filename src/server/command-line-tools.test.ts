import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openPglite } from "./db/client";
import { runScript } from "./testing/run-script";
import { databaseOnly } from "./testing/test-scope";

/**
 * The npm scripts people type (`scripts/command-line.ts`): `--help` prints the usage, a
 * mistaken option says what is wrong, with the usage, and exits 2 before touching any data.
 */
const dataDir = mkdtempSync(join(tmpdir(), "credo-cli-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const TOOLS = [
  { tool: "backup", script: "scripts/backup.ts", usage: "Usage: npm run backup -- [--out DIR]" },
  { tool: "restore", script: "scripts/restore.ts", usage: "Usage: npm run restore -- --from DIR" },
  { tool: "audit:verify", script: "scripts/audit-verify.ts", usage: "Usage: npm run audit:verify" },
  { tool: "seed:scale", script: "scripts/seed-scale.ts", usage: "Usage: npm run seed:scale --" },
  { tool: "bench", script: "scripts/bench/run.ts", usage: "Usage: npm run bench -- [options]" },
  {
    tool: "credentials:rotate-key",
    script: "scripts/credentials-rotate-key.ts",
    usage: "Usage: npm run credentials:rotate-key",
  },
];

function run(script: string, args: string[]) {
  // Pointed at an empty directory: a tool that wrongly went ahead would create its data.
  return runScript(script, args, { DATA_DIR: join(dataDir, "data") });
}

describe.skipIf(databaseOnly)("command-line tools", () => {
  it("print their usage for --help and exit 0", async () => {
    const runs = await Promise.all(TOOLS.map((t) => run(t.script, ["--help"])));
    runs.forEach((result, i) => {
      expect(result.code, TOOLS[i]?.tool).toBe(0);
      expect(result.stdout).toContain(TOOLS[i]?.usage);
    });
    expect(existsSync(join(dataDir, "data"))).toBe(false);
  }, 60_000);

  it("name a mistaken option in one line, show the usage, exit 2 and change nothing", async () => {
    const cases = [
      ...TOOLS.map((t) => ({ ...t, args: ["--no-such-option"], says: "Unknown option" })),
      { ...TOOLS[1]!, args: [], says: "--from is required" },
      { ...TOOLS[4]!, args: ["--duration", "soon"], says: "--duration must be a positive number" },
    ];
    const runs = await Promise.all(cases.map((c) => run(c.script, c.args)));
    runs.forEach((result, i) => {
      const { tool, usage, says } = cases[i]!;
      expect(result.code, tool).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^${tool}: .*${says}`));
      expect(result.stderr).toContain(usage);
      expect(result.stderr, "no stack trace").not.toMatch(/\n\s+at \S.*:\d+:\d+/);
    });
    expect(existsSync(join(dataDir, "data"))).toBe(false);
  }, 60_000);

  it("report a failure in one line with exit code 1, without a stack trace", async () => {
    const missing = join(dataDir, "no-such-backup");
    const restore = await run("scripts/restore.ts", ["--from", missing]);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toBe(
      `restore: ${join(missing, "pglite-data.tar.gz")} not found: this backup is not of an embedded database\n`,
    );

    // A backup of the embedded database while a portal holds it.
    const held = join(dataDir, "held");
    const portal = await openPglite(held);
    try {
      const backup = await runScript("scripts/backup.ts", ["--out", join(dataDir, "out")], {
        DATA_DIR: held,
      });
      expect(backup.code).toBe(1);
      expect(backup.stderr).toBe(
        `backup: The data directory ${held} is in use by another Credo process. Stop it first, or set DATA_DIR to another directory.\n`,
      );
    } finally {
      await portal.close();
    }
  }, 60_000);
});
