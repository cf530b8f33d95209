import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client";
import type { ObjectStore } from "../../storage/object-store";
import { createPackagesRepository } from "./packages.repository";

/**
 * An unpacking takes minutes at most (a 500 MB package); one still going after a day was
 * stopped by the process ending, and nothing will finish it.
 */
const ABANDONED_AGE_MS = 24 * 60 * 60 * 1000;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const BATCH = 100;

/**
 * Removes packages whose unpacking stopped halfway (the portal stopped during a module's
 * save): their files and their row. Never a ready package: those go only when no module
 * plays them. Several instances may sweep at once; each removal is idempotent.
 */
export function createPackagesSweeper(deps: {
  db: Database;
  store: ObjectStore;
  log?: Pick<FastifyBaseLogger, "warn">;
  intervalMs?: number;
}) {
  const repo = createPackagesRepository(deps.db);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;

  async function sweep({ maxAgeMs = ABANDONED_AGE_MS, now = new Date() } = {}) {
    const cutoff = new Date(now.getTime() - maxAgeMs);
    let removed = 0;
    const failed = new Set<string>();
    while (!stopped) {
      const batch = (await repo.unfinishedBefore(cutoff, BATCH + failed.size)).filter(
        (row) => !failed.has(row.id),
      );
      if (!batch.length) break;
      for (const row of batch) {
        try {
          // Files first, then the row: a failure leaves the row, and the next sweep retries.
          await deps.store.deletePackage(row.id);
          await repo.deleteUnfinished(row.id);
          removed++;
        } catch (err) {
          failed.add(row.id);
          deps.log?.warn({ err, packageId: row.id }, "abandoned package: could not remove it");
        }
      }
    }
    return removed;
  }

  return {
    sweep,
    start() {
      stopped = false;
      if (timer) return;
      timer = setInterval(() => {
        running ??= sweep()
          .catch((err) => deps.log?.warn({ err }, "abandoned package sweep failed"))
          .finally(() => {
            running = undefined;
          });
      }, deps.intervalMs ?? SWEEP_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
