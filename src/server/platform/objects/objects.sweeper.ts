import { and, asc, inArray, lt, notInArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { DatabaseHandle, Executor } from "../../db/client";
import type { ObjectStore } from "../../storage/object-store";
import { objects } from "./objects.table";

/**
 * Uploads nobody finished are deleted after a day: far past the upload URL's one-hour
 * validity and the one-hour request timeout, so no upload still in flight is touched.
 */
const ABANDONED_UPLOAD_AGE_MS = 24 * 60 * 60 * 1000;
/** How often each instance tries a sweep (only one at a time sweeps: an advisory lock). */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** Arbitrary constant, distinct from the other advisory locks (migrations, auth). */
const SWEEP_LOCK_ID = 7_311_080;
const BATCH = 100;
/** Never usable and never referenced by a course: only `ready` objects can be attached. */
const UNFINISHED = ["pending", "uploaded", "rejected"] as const;

interface SweepResult {
  /** Unfinished upload rows deleted, with whatever bytes they had in the store. */
  uploads: number;
  /** Store leftovers without a row to go through: local temp files, S3 `incoming/` keys. */
  leftovers: number;
}

export interface ObjectsSweeper {
  /**
   * Deletes uploads left unfinished for longer than `maxAgeMs` (a cut-off PUT, a URL never
   * used, a refused file, bytes never confirmed by set-acl) and stale store leftovers.
   * Null when another instance is sweeping right now.
   */
  sweep(options?: { maxAgeMs?: number; now?: Date }): Promise<SweepResult | null>;
}

export function createObjectsSweeper(deps: {
  database: Pick<DatabaseHandle, "db" | "kind">;
  store: ObjectStore;
  log?: Pick<FastifyBaseLogger, "warn">;
}): ObjectsSweeper & { stop(): void } {
  const { database, store } = deps;
  let stopped = false;

  async function sweepRows(db: Executor, cutoff: Date): Promise<number> {
    let deleted = 0;
    // Rows whose bytes could not be deleted stay for the next sweep; skipped here so one
    // failing object cannot keep this loop busy.
    const failed: string[] = [];
    while (!stopped) {
      const batch = await db
        .select({ id: objects.id })
        .from(objects)
        .where(
          and(
            inArray(objects.status, [...UNFINISHED]),
            lt(objects.createdAt, cutoff),
            failed.length ? notInArray(objects.id, failed) : undefined,
          ),
        )
        .orderBy(asc(objects.createdAt))
        .limit(BATCH);
      if (!batch.length) break;
      const gone: string[] = [];
      for (const { id } of batch) {
        try {
          // Bytes first, then the row: a failure leaves the row, so the next sweep retries.
          await store.delete(id);
          gone.push(id);
        } catch (err) {
          failed.push(id);
          deps.log?.warn({ err, objectId: id }, "abandoned upload: could not delete its bytes");
        }
      }
      if (gone.length) {
        // Still unfinished: an upload that became ready meanwhile is never deleted.
        const rows = await db
          .delete(objects)
          .where(and(inArray(objects.id, gone), inArray(objects.status, [...UNFINISHED])))
          .returning({ id: objects.id });
        deleted += rows.length;
      }
      if (batch.length < BATCH) break;
    }
    return deleted;
  }

  async function sweepLeftovers(cutoff: Date): Promise<number> {
    let deleted = 0;
    for await (const name of store.listLeftovers(cutoff)) {
      if (stopped) break;
      try {
        await store.deleteLeftover(name);
        deleted++;
      } catch (err) {
        deps.log?.warn({ err, name }, "upload leftover: could not delete it");
      }
    }
    return deleted;
  }

  async function run(db: Executor, cutoff: Date): Promise<SweepResult> {
    return { uploads: await sweepRows(db, cutoff), leftovers: await sweepLeftovers(cutoff) };
  }

  return {
    async sweep({ maxAgeMs = ABANDONED_UPLOAD_AGE_MS, now = new Date() } = {}) {
      const cutoff = new Date(now.getTime() - maxAgeMs);
      // PGlite belongs to one process (its directory is locked): nobody to take turns with.
      if (database.kind === "pglite") return run(database.db, cutoff);
      // Several instances on one PostgreSQL: whoever holds the lock sweeps, the rest skip.
      // A transaction-scoped lock is released by commit, rollback or a lost connection.
      return database.db.transaction(async (tx) => {
        const result = await tx.execute(
          sql`select pg_try_advisory_xact_lock(${SWEEP_LOCK_ID}) as locked`,
        );
        const [row] = (result as unknown as { rows: { locked: boolean }[] }).rows;
        return row?.locked ? run(tx, cutoff) : null;
      });
    },
    /** Makes a sweep in progress stop at its next object (shutdown). */
    stop() {
      stopped = true;
    },
  };
}

/**
 * Runs the sweeper every `intervalMs` (first one interval after start) without keeping the
 * process alive; a failed run (database down) is logged and retried at the next interval.
 * The returned function stops it and waits for a run in progress to wind down.
 */
export function startObjectsSweeper(
  deps: Parameters<typeof createObjectsSweeper>[0] & {
    intervalMs?: number;
    maxAgeMs?: number;
  },
): () => Promise<void> {
  const sweeper = createObjectsSweeper(deps);
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = sweeper
      .sweep({ maxAgeMs: deps.maxAgeMs })
      .catch((err) => deps.log?.warn({ err }, "abandoned upload sweep failed"))
      .finally(() => {
        running = undefined;
      });
  }, deps.intervalMs ?? SWEEP_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    sweeper.stop();
    await running;
  };
}
