import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import {
  type ModuleWatchRow,
  moduleWatch,
  type WatchClockRow,
  watchClocks,
} from "./watching.table";

interface Key {
  userId: string;
  courseId: string;
}

export function createWatchingRepository(db: Executor) {
  return {
    /**
     * This transaction's commit answers before its WAL record reaches the disk. A crash can
     * then lose at most the last fraction of a second of heartbeats (the learner re-watches
     * those seconds), never a credit record: completing a module commits synchronously,
     * which flushes the log up to itself and so every heartbeat it relied on.
     */
    async commitWithoutFlush() {
      await db.execute(sql`set local synchronous_commit = off`);
    },

    /**
     * The learner's clock in the course, created at `now` if missing, locked for the rest of
     * the transaction: heartbeats of one learner and course run one after the other. The
     * upsert takes the lock and answers the latest committed clock in one round trip.
     */
    async lockClock(key: Key, now: Date): Promise<WatchClockRow> {
      const [row] = await db
        .insert(watchClocks)
        .values({ ...key, creditClockAt: now, lastBeatAt: now })
        .onConflictDoUpdate({
          target: [watchClocks.userId, watchClocks.courseId],
          set: { userId: sql`excluded.user_id` },
        })
        .returning();
      return row!;
    },

    async findWatch(key: Key & { moduleId: string }): Promise<ModuleWatchRow | undefined> {
      const [row] = await db
        .select()
        .from(moduleWatch)
        .where(
          and(
            eq(moduleWatch.userId, key.userId),
            eq(moduleWatch.courseId, key.courseId),
            eq(moduleWatch.moduleId, key.moduleId),
          ),
        );
      return row;
    },

    /**
     * Moves the course clock on and inserts or replaces the module's record, in one
     * statement (the caller holds the clock's lock).
     */
    async saveBeat(
      clock: Pick<WatchClockRow, "creditClockAt" | "lastBeatAt">,
      values: typeof moduleWatch.$inferInsert,
    ): Promise<ModuleWatchRow> {
      const { userId: _u, courseId: _c, moduleId: _m, createdAt: _a, ...changes } = values;
      const moved = db.$with("moved_clock").as(
        db
          .update(watchClocks)
          .set(clock)
          .where(
            and(eq(watchClocks.userId, values.userId), eq(watchClocks.courseId, values.courseId)),
          )
          .returning({ userId: watchClocks.userId }),
      );
      const [row] = await db
        .with(moved)
        .insert(moduleWatch)
        .values(values)
        .onConflictDoUpdate({
          target: [moduleWatch.userId, moduleWatch.courseId, moduleWatch.moduleId],
          set: changes,
        })
        .returning();
      return row!;
    },

    async watchesOf(key: Key): Promise<ModuleWatchRow[]> {
      return db
        .select()
        .from(moduleWatch)
        .where(and(eq(moduleWatch.userId, key.userId), eq(moduleWatch.courseId, key.courseId)));
    },

    /** Every record, in pages in primary-key order (for the CSV export). */
    async page(after: (Key & { moduleId: string }) | null, limit: number) {
      return db
        .select()
        .from(moduleWatch)
        .where(
          after
            ? sql`(${moduleWatch.userId}, ${moduleWatch.courseId}, ${moduleWatch.moduleId}) > (${after.userId}, ${after.courseId}, ${after.moduleId})`
            : undefined,
        )
        .orderBy(asc(moduleWatch.userId), asc(moduleWatch.courseId), asc(moduleWatch.moduleId))
        .limit(limit);
    },
  };
}
