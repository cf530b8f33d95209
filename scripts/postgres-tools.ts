import { execFileSync } from "node:child_process";

/**
 * Runs pg_dump or pg_restore on the database at `databaseUrl`. The password travels in the
 * tool's environment (PGPASSWORD), never in its arguments, and a failure is reported by the
 * tool's name and exit code, never by its command line: either would show the password to
 * whoever reads the terminal, the job's log or the process list. The tool's own messages,
 * which never name the password, are printed as it runs.
 */
export function runPostgresTool(
  tool: "pg_dump" | "pg_restore",
  args: string[],
  databaseUrl: string,
): void {
  const url = new URL(databaseUrl);
  const password = url.password
    ? decodeURIComponent(url.password)
    : (url.searchParams.get("password") ?? undefined);
  url.password = "";
  url.searchParams.delete("password");
  try {
    execFileSync(tool, [`--dbname=${url.toString()}`, ...args], {
      stdio: "inherit",
      env: password === undefined ? process.env : { ...process.env, PGPASSWORD: password },
    });
  } catch (err) {
    const { status, code } = err as { status?: number | null; code?: string };
    throw new Error(
      code === "ENOENT"
        ? `${tool} was not found: install the PostgreSQL client tools`
        : `${tool} failed (exit code ${status ?? "unknown"}); its message is above`,
    );
  }
}
