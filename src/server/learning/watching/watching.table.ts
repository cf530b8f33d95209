import { sql } from "drizzle-orm";
import {
  check,
  doublePrecision,
  foreignKey,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { users } from "../../people/auth/auth.table";
import { enrollments } from "../enrollments/enrollments.table";

/** Merged [start, end] seconds of media time, sorted and disjoint. */
export type Intervals = [number, number][];

/**
 * One learner's watching of one module. Keyed by learner, course and module, and
 * tied to the enrollment (user_id, course_id) so removing the enrollment removes it. Rows
 * outlive a deleted module, like module_completions: the record of what was watched stays.
 */
export const moduleWatch = pgTable(
  "module_watch",
  {
    userId: text("user_id").notNull(),
    courseId: text("course_id").notNull(),
    moduleId: text("module_id").notNull(),
    /** The video the intervals refer to: a replaced video starts a new record. */
    videoUrl: text("video_url").notNull(),
    durationSeconds: doublePrecision("duration_seconds"),
    intervals: jsonb("intervals").$type<Intervals>().notNull().default([]),
    watchedSeconds: doublePrecision("watched_seconds").notNull().default(0),
    seatSeconds: doublePrecision("seat_seconds").notNull().default(0),
    positionSeconds: doublePrecision("position_seconds").notNull().default(0),
    heartbeats: integer("heartbeats").notNull().default(0),
    lastHeartbeatAt: timestamp("last_heartbeat_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.courseId, t.moduleId] }),
    foreignKey({
      name: "module_watch_enrollment_fk",
      columns: [t.userId, t.courseId],
      foreignColumns: [enrollments.userId, enrollments.courseId],
    }).onDelete("cascade"),
    check("module_watch_duration_check", sql`${t.durationSeconds} > 0`),
    check(
      "module_watch_seconds_check",
      sql`${t.watchedSeconds} >= 0 and ${t.seatSeconds} >= 0 and ${t.positionSeconds} >= 0`,
    ),
  ],
);

/**
 * The learner's one wall clock. Every heartbeat, whatever the course, module, browser tab or
 * device, spends from it, so all of a learner's watching together earns at most the time
 * that passed. `creditClockAt` is the moment up to which time has been spent (never ahead of
 * the latest heartbeat); `lastBeatAt` is when the learner's latest heartbeat arrived.
 */
export const watchClocks = pgTable("watch_clocks", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  creditClockAt: timestamp("credit_clock_at", { withTimezone: true }).notNull(),
  lastBeatAt: timestamp("last_beat_at", { withTimezone: true }).notNull(),
});

export type ModuleWatchRow = typeof moduleWatch.$inferSelect;
export type WatchClockRow = typeof watchClocks.$inferSelect;
