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
     * The learner's clock in the course, created at `now` if missing, locked for the rest of
     * the transaction: heartbeats of one learner and course run one after the other.
     */
    async lockClock(key: Key, now: Date): Promise<WatchClockRow> {
      await db
        .insert(watchClocks)
        .values({ ...key, creditClockAt: now, lastBeatAt: now })
        .onConflictDoNothing();
      const [row] = await db
        .select()
        .from(watchClocks)
        .where(and(eq(watchClocks.userId, key.userId), eq(watchClocks.courseId, key.courseId)))
        .for("update");
      return row!;
    },

    async updateClock(key: Key, values: Pick<WatchClockRow, "creditClockAt" | "lastBeatAt">) {
      await db
        .update(watchClocks)
        .set(values)
        .where(and(eq(watchClocks.userId, key.userId), eq(watchClocks.courseId, key.courseId)));
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

    /** Inserts or replaces the module's record (the caller holds the course clock's lock). */
    async saveWatch(values: typeof moduleWatch.$inferInsert): Promise<ModuleWatchRow> {
      const { userId: _u, courseId: _c, moduleId: _m, createdAt: _a, ...changes } = values;
      const [row] = await db
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
