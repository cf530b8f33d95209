import { and, asc, eq, getTableColumns, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { preparedOnce } from "../../db/prepared";
import { jsonRecordsOf, recordsValue } from "../../db/records";
import type { BeatWrite } from "./beat";
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

/** A module record's key in the maps `findWatches` answers. */
export const watchKeyOf = (k: Key & { moduleId: string }) =>
  `${k.userId}\u0000${k.courseId}\u0000${k.moduleId}`;

/** What a heartbeat replaces in an existing record: everything but its key and creation. */
const replacedColumns = Object.fromEntries(
  Object.entries(getTableColumns(moduleWatch))
    .filter(([name]) => !["userId", "courseId", "moduleId", "createdAt"].includes(name))
    .map(([name, column]) => [name, sql.raw(`excluded."${column.name}"`)]),
);

export function createWatchingRepository(db: Executor) {
  return {
    /**
     * Several learners' clocks, created at `now` where missing and locked for the rest of the
     * transaction, keyed by learner: a learner's heartbeats, from any course, module, tab or
     * device, run one after the other. Locked in one order, so two instances' batches cannot
     * deadlock each other. The upsert takes the locks and answers the latest committed clocks
     * in one round trip.
     *
     * The same statement lets the transaction's commit answer before its WAL record reaches
     * the disk (a round trip less than `SET LOCAL`). A crash can then lose at most the last
     * fraction of a second of heartbeats (the learner re-watches those seconds), never a
     * credit record: completing a module commits synchronously, which flushes the log up to
     * itself and so every heartbeat it relied on.
     */
    async lockClocks(userIds: string[], now: Date): Promise<Map<string, WatchClockRow>> {
      const statement = preparedOnce(db, "watch_clocks_lock_many", (d) =>
        d
          .insert(watchClocks)
          .select(
            sql`select k.user_id, ${sql.placeholder("at")}::timestamptz, ${sql.placeholder("at")}::timestamptz
              from (select set_config('synchronous_commit', 'off', true)) as without_flush,
                rows from (${jsonRecordsOf("keys")} as (user_id text)) with ordinality as k(user_id, n)
              order by k.n`,
          )
          .onConflictDoUpdate({
            target: watchClocks.userId,
            set: { userId: sql`excluded.user_id` },
          })
          .returning()
          .prepare("watch_clocks_lock_many"),
      );
      const sorted = [...userIds].sort();
      const rows = await statement.execute({
        at: now.toISOString(),
        keys: recordsValue(sorted.map((id) => ({ user_id: id }))),
      });
      return new Map(rows.map((r) => [r.userId, r]));
    },

    /** Several module records, keyed by learner, course and module. */
    async findWatches(keys: (Key & { moduleId: string })[]): Promise<Map<string, ModuleWatchRow>> {
      const statement = preparedOnce(db, "module_watch_of_many", (d) =>
        d
          .select()
          .from(moduleWatch)
          .where(
            sql`(${moduleWatch.userId}, ${moduleWatch.courseId}, ${moduleWatch.moduleId}) in (
              select * from ${jsonRecordsOf("keys")} as k(user_id text, course_id text, module_id text))`,
          )
          .prepare("module_watch_of_many"),
      );
      const rows = await statement.execute({
        keys: recordsValue(
          keys.map((k) => ({ user_id: k.userId, course_id: k.courseId, module_id: k.moduleId })),
        ),
      });
      return new Map(rows.map((r) => [watchKeyOf(r), r]));
    },

    /**
     * Writes several heartbeats in one statement (the caller holds their clocks' locks): the
     * clocks move on, the module records are inserted or replaced. Answers the records in
     * `writes` order.
     */
    async saveBeats(writes: BeatWrite[]): Promise<ModuleWatchRow[]> {
      const statement = preparedOnce(db, "module_watch_save_many", (d) => {
        const beats = sql`${jsonRecordsOf("beats")} as b(user_id text, course_id text, module_id text,
          video_url text, duration_seconds float8, intervals jsonb, watched_seconds float8,
          seat_seconds float8, position_seconds float8, heartbeats int,
          last_heartbeat_at timestamptz, updated_at timestamptz, credit_clock_at timestamptz,
          last_beat_at timestamptz)`;
        const moved = d
          .$with("moved_clocks")
          .as(
            d
              .update(watchClocks)
              .set({ creditClockAt: sql`b.credit_clock_at`, lastBeatAt: sql`b.last_beat_at` })
              .from(beats)
              .where(sql`${watchClocks.userId} = b.user_id`)
              .returning({ userId: watchClocks.userId }),
          );
        return d
          .with(moved)
          .insert(moduleWatch)
          .select(
            sql`select user_id, course_id, module_id, video_url, duration_seconds, intervals,
              watched_seconds, seat_seconds, position_seconds, heartbeats, last_heartbeat_at,
              now(), updated_at from ${beats}`,
          )
          .onConflictDoUpdate({
            target: [moduleWatch.userId, moduleWatch.courseId, moduleWatch.moduleId],
            set: replacedColumns,
          })
          .returning()
          .prepare("module_watch_save_many");
      });
      const saved = await statement.execute({
        beats: recordsValue(
          writes.map(({ watch: w, clock: c }) => ({
            user_id: w.userId,
            course_id: w.courseId,
            module_id: w.moduleId,
            video_url: w.videoUrl,
            duration_seconds: w.durationSeconds,
            intervals: w.intervals,
            watched_seconds: w.watchedSeconds,
            seat_seconds: w.seatSeconds,
            position_seconds: w.positionSeconds,
            heartbeats: w.heartbeats,
            last_heartbeat_at: w.lastHeartbeatAt,
            updated_at: w.updatedAt,
            credit_clock_at: c.creditClockAt,
            last_beat_at: c.lastBeatAt,
          })),
        ),
      });
      const byKey = new Map(saved.map((r) => [watchKeyOf(r), r]));
      return writes.map(({ watch }) => byKey.get(watchKeyOf(watch))!);
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
