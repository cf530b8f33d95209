import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { clusterDirOf } from "../db/embedded-postgres";

/** A process that runs (a zombie, exited but not yet reaped by its new parent, does not). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** The embedded server's pid, from the first line of its postmaster.pid, while it runs. */
export function embeddedServerPid(dataDir: string): number | undefined {
  const pidFile = join(clusterDirOf(dataDir), "postmaster.pid");
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  return pid > 0 && alive(pid) ? pid : undefined;
}
