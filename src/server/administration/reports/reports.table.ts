import { bigint, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { courses } from "../../catalogue/courses/courses.table";

/**
 * Running enrollment figures per course, kept by statement-level triggers on enrollments
 * (migration 0004), so dashboards read ~1,000 rows instead of aggregating 1,000,000.
 * Every write path (API, seeding, cascades) updates it in the same transaction.
 */
export const courseStats = pgTable("course_stats", {
  courseId: text("course_id")
    .primaryKey()
    .references(() => courses.id, { onDelete: "cascade" }),
  enrollments: integer("enrollments").notNull().default(0),
  completions: integer("completions").notNull().default(0),
  progressSum: bigint("progress_sum", { mode: "number" }).notNull().default(0),
});

/**
 * Users per role and status, kept by statement-level triggers on users (migration 0006), so
 * the dashboard's learner counts read 4 rows instead of counting 100,000 index entries
 * twice (counting them kept /api/admin/stats p95 near 400 ms at 50 connections, far over
 * its budget).
 */
export const userStats = pgTable(
  "user_stats",
  {
    role: text("role").notNull(),
    status: text("status").notNull(),
    users: integer("users").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.role, t.status] })],
);
