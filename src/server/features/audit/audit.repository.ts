import { and, asc, eq, gt, gte, lt, type SQL } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { type AuditEventRow, auditEvents, auditHead } from "./audit.table";
import { GENESIS_HASH } from "./audit-hash";

export interface AuditFilter {
  learnerId?: string;
  courseId?: string;
  from?: Date;
  /** Exclusive. */
  to?: Date;
}

export function createAuditRepository(db: Executor) {
  return {
    /**
     * Locks the chain head (creating it for an empty trail): every append, from any
     * instance, waits here, so the chain never forks. Held until the transaction ends.
     */
    async lockHead(): Promise<{ seq: number; hash: string }> {
      await db
        .insert(auditHead)
        .values({ id: 1, seq: 0, hash: GENESIS_HASH })
        .onConflictDoNothing();
      const [head] = await db.select().from(auditHead).where(eq(auditHead.id, 1)).for("update");
      return head!;
    },

    async insert(row: AuditEventRow): Promise<void> {
      await db.insert(auditEvents).values(row);
      await db.update(auditHead).set({ seq: row.seq, hash: row.hash }).where(eq(auditHead.id, 1));
    },

    async head(): Promise<{ seq: number; hash: string } | undefined> {
      const [head] = await db.select().from(auditHead).where(eq(auditHead.id, 1));
      return head;
    },

    /** A page of events in chain order after `afterSeq`, matching the filter (index-served). */
    async page(filter: AuditFilter, afterSeq: number, limit: number): Promise<AuditEventRow[]> {
      return this.pageQuery(filter, afterSeq, limit);
    },

    /** The page's query, unexecuted: audit.explain.test.ts checks its plan. */
    pageQuery(filter: AuditFilter, afterSeq: number, limit: number) {
      const conditions: (SQL | undefined)[] = [
        gt(auditEvents.seq, afterSeq),
        filter.learnerId ? eq(auditEvents.learnerId, filter.learnerId) : undefined,
        filter.courseId ? eq(auditEvents.courseId, filter.courseId) : undefined,
        filter.from ? gte(auditEvents.at, filter.from) : undefined,
        filter.to ? lt(auditEvents.at, filter.to) : undefined,
      ];
      return db
        .select()
        .from(auditEvents)
        .where(and(...conditions))
        .orderBy(asc(auditEvents.seq))
        .limit(limit);
    },
  };
}
