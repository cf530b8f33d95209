import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

const root = new URL("../../..", import.meta.url).pathname;
const tsx = join(root, "node_modules/tsx/dist/cli.mjs");

/**
 * Runs one of the repository's TypeScript scripts (`scripts/...`) as `npm run` would, in its
 * own process from the repository root. Its environment is this process's with `env` on top,
 * without DATABASE_URL unless `env` names one: a test's script never reaches a database the
 * test did not choose. Resolves with its exit code and output whether it succeeded or not.
 */
export async function runScript(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { DATABASE_URL: _notInherited, ...inherited } = process.env;
  try {
    const out = await promisify(execFile)(process.execPath, [tsx, join(root, script), ...args], {
      cwd: root,
      env: { ...inherited, ...env },
    });
    return { code: 0, ...out };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
