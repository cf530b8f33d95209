import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  isNotNull,
  isNull,
  lt,
  lte,
  type SQL,
  sql,
} from "drizzle-orm";
import type { AuditEventType } from "../../../contract";
import type { Executor } from "../../db/client";
import { jsonRecords } from "../../db/records";
import {
  type AuditEventRow,
  auditEvents,
  auditHead,
  type LinkedAuditEventRow,
} from "./audit.table";
import { GENESIS_HASH } from "./audit-hash";

export interface AuditFilter {
  /** Who acted. */
  actorId?: string;
  type?: AuditEventType;
  learnerId?: string;
  courseId?: string;
  from?: Date;
  /** Exclusive. */
  to?: Date;
}

export type NewAuditEvent = Omit<AuditEventRow, "id" | "seq" | "prevHash" | "hash">;
export interface ChainHead {
  seq: number;
  hash: string;
}
export interface ChainLink {
  id: number;
  seq: number;
  prevHash: string;
  hash: string;
}

/** The filter's conditions; each is served by an index that ends in seq (audit.table.ts). */
const filterConditions = (filter: AuditFilter): (SQL | undefined)[] => [
  filter.actorId ? eq(auditEvents.actorId, filter.actorId) : undefined,
  filter.type ? eq(auditEvents.type, filter.type) : undefined,
  filter.learnerId ? eq(auditEvents.learnerId, filter.learnerId) : undefined,
  filter.courseId ? eq(auditEvents.courseId, filter.courseId) : undefined,
  filter.from ? gte(auditEvents.at, filter.from) : undefined,
  filter.to ? lt(auditEvents.at, filter.to) : undefined,
];

export function createAuditRepository(db: Executor) {
  const headQuery = () => db.select().from(auditHead).where(eq(auditHead.id, 1));

  return {
    /** Inserts an unlinked row (seq, prev_hash and hash null): takes no shared lock. */
    async insert(row: NewAuditEvent): Promise<AuditEventRow> {
      const [inserted] = await db.insert(auditEvents).values(row).returning();
      return inserted!;
    },

    /**
     * Several events in one statement, in the order given (their ids, and so their places in
     * the chain, follow it). The rows go as one JSON parameter: a batch of completions
     * appends one event each.
     */
    async insertMany(rows: NewAuditEvent[]): Promise<void> {
      if (!rows.length) return;
      const records = jsonRecords(
        rows.map((r) => ({
          at: r.at,
          actor_id: r.actorId,
          actor_role: r.actorRole,
          type: r.type,
          learner_id: r.learnerId,
          course_id: r.courseId,
          module_id: r.moduleId,
          details: r.details,
        })),
      );
      await db.execute(sql`
        insert into ${auditEvents}
          (at, actor_id, actor_role, type, learner_id, course_id, module_id, details)
        select at, actor_id, actor_role, type, learner_id, course_id, module_id, details
        from rows from (${records} as (at timestamptz, actor_id text, actor_role text,
          type text, learner_id text, course_id text, module_id text, details jsonb))
          with ordinality as r(at, actor_id, actor_role, type, learner_id, course_id, module_id,
            details, n)
        order by n`);
    },

    /** Whether any committed row waits for the linker (served by audit_events_unlinked_idx). */
    async hasUnlinked(): Promise<boolean> {
      const rows = await db
        .select({ id: auditEvents.id })
        .from(auditEvents)
        .where(isNull(auditEvents.hash))
        .limit(1);
      return rows.length > 0;
    },

    async countUnlinked(): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(auditEvents)
        .where(isNull(auditEvents.hash));
      return Number(row?.n ?? 0);
    },

    /**
     * Locks the chain head until the transaction ends (creating it for an empty trail), so
     * one linker at a time, from any instance, extends the chain. With `wait: false` a head
     * already locked by another linker is skipped: undefined.
     */
    async lockHead({ wait }: { wait: boolean }): Promise<ChainHead | undefined> {
      const lock = () =>
        wait ? headQuery().for("update") : headQuery().for("update", { skipLocked: true });
      const [head] = await lock();
      if (head) return head;
      // Inserted only when missing: ON CONFLICT would wait on a head another linker updated.
      // A head another linker created meanwhile is waited for by a linker that waits (a
      // reader's own link before it reads the trail), and skipped by one that does not.
      if ((await headQuery()).length > 0) return wait ? (await lock())[0] : undefined;
      await db
        .insert(auditHead)
        .values({ id: 1, seq: 0, hash: GENESIS_HASH })
        .onConflictDoNothing();
      const [created] = await lock();
      return created;
    },

    /** The oldest unlinked rows, in insertion order. */
    async unlinked(limit: number): Promise<AuditEventRow[]> {
      return this.unlinkedQuery(limit);
    },

    /** The linker's query, unexecuted: audit.explain.test.ts checks its plan. */
    unlinkedQuery(limit: number) {
      return db
        .select()
        .from(auditEvents)
        .where(isNull(auditEvents.hash))
        .orderBy(asc(auditEvents.id))
        .limit(limit);
    },

    /**
     * Sets seq, prev_hash and hash of unlinked rows in one statement (the only update the
     * append-only trigger lets through). Returns how many rows it linked.
     */
    async link(links: ChainLink[]): Promise<number> {
      if (links.length === 0) return 0;
      const records = jsonRecords(
        links.map((l) => ({ id: l.id, seq: l.seq, prev_hash: l.prevHash, hash: l.hash })),
      );
      const result = await db.execute(sql`
        update audit_events as e
        set seq = v.seq, prev_hash = v.prev_hash, hash = v.hash
        from ${records} as v(id bigint, seq bigint, prev_hash text, hash text)
        where e.id = v.id and e.hash is null
        returning e.id`);
      return (result as unknown as { rows: unknown[] }).rows.length;
    },

    async setHead(head: ChainHead): Promise<void> {
      await db.update(auditHead).set(head).where(eq(auditHead.id, 1));
    },

    async head(): Promise<ChainHead | undefined> {
      const [head] = await headQuery();
      return head;
    },

    /**
     * The first linked seq beyond the head, read with the head in one statement (one
     * snapshot): a linker moves rows and head together, so any such row was put there
     * outside the chain.
     */
    async firstBeyondHead(): Promise<number | null> {
      const result = await db.execute(sql`
        select (select min(e.seq) from audit_events e where e.seq > coalesce(h.seq, 0)) as stray
        from (select 1) one left join audit_head h on h.id = 1`);
      const [row] = (result as unknown as { rows: { stray: string | number | null }[] }).rows;
      return row?.stray == null ? null : Number(row.stray);
    },

    /** A page of linked events in chain order after `afterSeq`, matching the filter (index-served). */
    async page(
      filter: AuditFilter,
      afterSeq: number,
      limit: number,
      throughSeq?: number,
    ): Promise<LinkedAuditEventRow[]> {
      return (await this.pageQuery(filter, afterSeq, limit, throughSeq)) as LinkedAuditEventRow[];
    },

    /** The page's query, unexecuted: audit.explain.test.ts checks its plan. */
    pageQuery(filter: AuditFilter, afterSeq: number, limit: number, throughSeq?: number) {
      const conditions: (SQL | undefined)[] = [
        gt(auditEvents.seq, afterSeq),
        throughSeq === undefined ? undefined : lte(auditEvents.seq, throughSeq),
        ...filterConditions(filter),
      ];
      return db
        .select()
        .from(auditEvents)
        .where(and(...conditions))
        .orderBy(asc(auditEvents.seq))
        .limit(limit);
    },

    /** Linked events matching the filter, newest first, before `beforeSeq` (the list's page). */
    async newest(
      filter: AuditFilter,
      beforeSeq: number | undefined,
      limit: number,
    ): Promise<LinkedAuditEventRow[]> {
      return (await this.newestQuery(filter, beforeSeq, limit)) as LinkedAuditEventRow[];
    },

    /** The list's query, unexecuted: audit.explain.test.ts checks its plan. */
    newestQuery(filter: AuditFilter, beforeSeq: number | undefined, limit: number) {
      const conditions: (SQL | undefined)[] = [
        beforeSeq === undefined ? isNotNull(auditEvents.seq) : lt(auditEvents.seq, beforeSeq),
        ...filterConditions(filter),
      ];
      return db
        .select()
        .from(auditEvents)
        .where(and(...conditions))
        .orderBy(desc(auditEvents.seq))
        .limit(limit);
    },
  };
}
