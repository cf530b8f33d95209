import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

const root = new URL("../../..", import.meta.url).pathname;
const tsx = join(root, "node_modules/tsx/dist/cli.mjs");

/**
 * Runs one of the repository's TypeScript scripts (`scripts/...`) as `npm run` would, in its
 * own process from the repository root, with `env` in place of this process's environment.
 * Resolves with its exit code and output whether it succeeded or not.
 */
export async function runScript(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const out = await promisify(execFile)(process.execPath, [tsx, join(root, script), ...args], {
      cwd: root,
      env,
    });
    return { code: 0, ...out };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
