import { sql } from "drizzle-orm";
import {
  check,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { newId } from "../../db/ids";
import { enrollments } from "../enrollments/enrollments.table";

export const PACKAGE_COMPLETION = ["unknown", "incomplete", "completed"] as const;
export const PACKAGE_SUCCESS = ["unknown", "passed", "failed"] as const;
export type PackageCompletion = (typeof PACKAGE_COMPLETION)[number];
export type PackageSuccess = (typeof PACKAGE_SUCCESS)[number];

/**
 * A learner's attempt at a package module (SCORM or cmi5): what the package reported of the
 * whole (completion, success, score, the time it counted) beside the seat time the portal
 * measured itself. One attempt is open per learner and module; an administrator's reset
 * ends it, and the next launch opens the next one. Ended attempts stay as the record of
 * what was done. Tied to the enrollment, so removing the enrollment removes them, as
 * watching records are.
 */
export const packageAttempts = pgTable(
  "package_attempts",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    /** The attempt as cmi5 names it: the registration its statements and state are kept under. */
    registration: uuid("registration").notNull().default(sql`gen_random_uuid()`),
    userId: text("user_id").notNull(),
    courseId: text("course_id").notNull(),
    moduleId: text("module_id").notNull(),
    /** The package played: a module given another package starts a new attempt. */
    packageId: text("package_id").notNull(),
    number: integer("number").notNull(),
    completion: text("completion", { enum: PACKAGE_COMPLETION }).notNull().default("unknown"),
    success: text("success", { enum: PACKAGE_SUCCESS }).notNull().default("unknown"),
    /** The package's score of the whole, scaled 0..1, once it reported one. */
    scoreScaled: doublePrecision("score_scaled"),
    /** The time the package says the learner spent (SCORM session times, cmi5 durations). */
    reportedSeconds: doublePrecision("reported_seconds").notNull().default(0),
    /** The time the portal saw the content open and visible. */
    seatSeconds: doublePrecision("seat_seconds").notNull().default(0),
    lastSeatAt: timestamp("last_seat_at", { withTimezone: true }),
    /** When the package first met the module's rule (completed or passed, cmi5 moveOn). */
    satisfiedAt: timestamp("satisfied_at", { withTimezone: true }),
    /** When an administrator's reset ended it; null while it is the learner's attempt. */
    endedAt: timestamp("ended_at", { withTimezone: true }),
    endedBy: text("ended_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: "package_attempts_enrollment_fk",
      columns: [t.userId, t.courseId],
      foreignColumns: [enrollments.userId, enrollments.courseId],
    }).onDelete("cascade"),
    uniqueIndex("package_attempts_registration_idx").on(t.registration),
    uniqueIndex("package_attempts_number_idx").on(t.userId, t.courseId, t.moduleId, t.number),
    uniqueIndex("package_attempts_open_idx")
      .on(t.userId, t.courseId, t.moduleId)
      .where(sql`${t.endedAt} is null`),
    index("package_attempts_module_idx").on(t.courseId, t.moduleId),
    check("package_attempts_number_check", sql`${t.number} >= 1`),
    check(
      "package_attempts_completion_check",
      sql`${t.completion} in ('unknown', 'incomplete', 'completed')`,
    ),
    check("package_attempts_success_check", sql`${t.success} in ('unknown', 'passed', 'failed')`),
    check(
      "package_attempts_score_check",
      sql`${t.scoreScaled} is null or ${t.scoreScaled} between -1 and 1`,
    ),
    check(
      "package_attempts_seconds_check",
      sql`${t.reportedSeconds} >= 0 and ${t.seatSeconds} >= 0`,
    ),
  ],
);

export type PackageAttemptRow = typeof packageAttempts.$inferSelect;

/**
 * What the package reported of each of its items in an attempt (a SCO's committed data
 * model, a cmi5 AU's satisfaction): a multi-item package is complete by its own rules over
 * these. `data` is the SCORM run time's data model as the content last committed it, which
 * a learner's return resumes from.
 */
export const packageItemStates = pgTable(
  "package_item_states",
  {
    attemptId: text("attempt_id")
      .notNull()
      .references(() => packageAttempts.id, { onDelete: "cascade" }),
    itemId: text("item_id").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    completion: text("completion", { enum: PACKAGE_COMPLETION }).notNull().default("unknown"),
    success: text("success", { enum: PACKAGE_SUCCESS }).notNull().default("unknown"),
    scoreScaled: doublePrecision("score_scaled"),
    reportedSeconds: doublePrecision("reported_seconds").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.attemptId, t.itemId] }),
    check(
      "package_item_states_completion_check",
      sql`${t.completion} in ('unknown', 'incomplete', 'completed')`,
    ),
    check(
      "package_item_states_success_check",
      sql`${t.success} in ('unknown', 'passed', 'failed')`,
    ),
    check(
      "package_item_states_score_check",
      sql`${t.scoreScaled} is null or ${t.scoreScaled} between -1 and 1`,
    ),
    check("package_item_states_seconds_check", sql`${t.reportedSeconds} >= 0`),
  ],
);

export type PackageItemStateRow = typeof packageItemStates.$inferSelect;
