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
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { AuditDetails } from "../../../contract";

/**
 * The audit trail of credit: append-only, each row chained to the previous one
 * by `hash = sha256(canonical row + prev_hash)` (audit-hash.ts). There are no foreign keys
 * on purpose: deleting a learner or a course must leave their history in place.
 *
 * A row is written in two steps: `append` inserts its content in the caller's
 * transaction, with `seq`, `prev_hash` and `hash` still null (no shared lock); the linker
 * then gives it its place in the chain, under the head's lock. A trigger refuses every
 * UPDATE and DELETE but that one linking update (migrations 0009 and 0011).
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    /** Insertion order: the linker links unlinked rows in this order. Has gaps (rollbacks). */
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** Chain position, head.seq + 1 at link time: gapless, so a deleted row leaves a gap. */
    seq: bigint("seq", { mode: "number" }),
    at: timestamp("at", { withTimezone: true }).notNull(),
    actorId: text("actor_id"),
    actorRole: text("actor_role"),
    type: text("type").notNull(),
    learnerId: text("learner_id"),
    courseId: text("course_id"),
    moduleId: text("module_id"),
    details: jsonb("details").$type<AuditDetails>().notNull().default({}),
    prevHash: text("prev_hash"),
    hash: text("hash"),
  },
  (t) => [
    uniqueIndex("audit_events_seq_idx").on(t.seq),
    // The CSV export and the list filter by learner, course or time and page by seq.
    index("audit_events_learner_idx").on(t.learnerId, t.seq),
    index("audit_events_course_idx").on(t.courseId, t.seq),
    index("audit_events_at_idx").on(t.at, t.seq),
    // The list on screen also filters by who acted and by what happened (migration 0021).
    index("audit_events_actor_idx").on(t.actorId, t.seq),
    index("audit_events_type_idx").on(t.type, t.seq),
    // The linker's queue: only unlinked rows, so finding them never scans the trail.
    index("audit_events_unlinked_idx").on(t.id).where(sql`${t.hash} is null`),
    // Linked means all three set; unlinked means none.
    check(
      "audit_events_linked_whole",
      sql`(${t.seq} is null) = (${t.hash} is null) and (${t.hash} is null) = (${t.prevHash} is null)`,
    ),
  ],
);

/**
 * The chain's head: one row holding the last linked seq and hash. The linker locks it
 * (FOR UPDATE), so linkers on any number of instances extend one chain, one at a time, and
 * a deleted last row is noticed.
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
/** A row the linker has placed in the chain. */
export type LinkedAuditEventRow = AuditEventRow & { seq: number; prevHash: string; hash: string };
