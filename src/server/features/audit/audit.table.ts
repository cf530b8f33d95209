import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

/**
 * The audit trail of credit (issue 11): append-only, each row chained to the previous one
 * by `hash = sha256(canonical row + prev_hash)` (audit-hash.ts). There are no foreign keys
 * on purpose: deleting a learner or a course must leave their history in place. A trigger
 * refuses UPDATE and DELETE (migration 0009).
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    /** head.seq + 1, taken under the chain lock: gapless, so a deleted row also leaves a gap. */
    seq: bigint("seq", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    actorId: text("actor_id"),
    actorRole: text("actor_role"),
    type: text("type").notNull(),
    learnerId: text("learner_id"),
    courseId: text("course_id"),
    moduleId: text("module_id"),
    details: jsonb("details")
      .$type<Record<string, string | number | boolean | null>>()
      .notNull()
      .default({}),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [
    // The CSV export filters by learner, course or time and pages by seq.
    index("audit_events_learner_idx").on(t.learnerId, t.seq),
    index("audit_events_course_idx").on(t.courseId, t.seq),
    index("audit_events_at_idx").on(t.at, t.seq),
  ],
);

/**
 * The chain's head: one row holding the last seq and hash. Appends lock it (FOR UPDATE), so
 * concurrent appends from any instance form one chain, and a deleted last row is noticed.
 */
export const auditHead = pgTable(
  "audit_head",
  {
    id: integer("id").primaryKey().default(1),
    seq: bigint("seq", { mode: "number" }).notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [check("audit_head_single_row", sql`${t.id} = 1`)],
);

export type AuditEventRow = typeof auditEvents.$inferSelect;
