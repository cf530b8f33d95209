import type { Database, Executor } from "../../db/client";
import { type AuditFilter, createAuditRepository } from "./audit.repository";
import type { AuditEventRow } from "./audit.table";
import { type AuditDetails, auditHash, GENESIS_HASH } from "./audit-hash";

/** The events that matter for credit (issue 11). */
export const AUDIT_EVENT_TYPES = [
  "enrollment.created",
  "enrollment.removed",
  "module.completed",
  "course.completed",
  "certificate.issued",
  "certificate.revoked",
  "learner.restricted",
  "learner.unrestricted",
  "learner.deleted",
] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** Who did it: a signed-in user, or null for the system itself. */
export type Actor = { id: string; role: "admin" | "learner" } | null;

export interface AuditEventInput {
  type: AuditEventType;
  actor: Actor;
  learnerId?: string | null;
  courseId?: string | null;
  moduleId?: string | null;
  details?: AuditDetails;
}

export interface ChainReport {
  ok: boolean;
  /** Rows checked before stopping. */
  checked: number;
  headSeq: number | null;
  headHash: string | null;
  /** The first row that does not fit the chain, and why. */
  broken?: { seq: number; reason: string };
}

const BATCH = 1000;

/** The append-only, hash-chained audit trail of credit. */
export function createAuditService({ db }: { db: Database }) {
  return {
    /**
     * Appends one event inside the caller's transaction, so the event and the change it
     * records commit together or not at all. Call it last in the transaction: the chain
     * head stays locked until commit.
     */
    async append(tx: Executor, event: AuditEventInput): Promise<AuditEventRow> {
      const repo = createAuditRepository(tx);
      const head = await repo.lockHead();
      const fields = {
        seq: head.seq + 1,
        // Millisecond precision, as JavaScript reads it back: the hash must verify later.
        at: new Date(),
        actorId: event.actor?.id ?? null,
        actorRole: event.actor?.role ?? null,
        type: event.type,
        learnerId: event.learnerId ?? null,
        courseId: event.courseId ?? null,
        moduleId: event.moduleId ?? null,
        details: event.details ?? {},
        prevHash: head.hash,
      };
      const row = { ...fields, hash: auditHash(fields) };
      await repo.insert(row);
      return row;
    },

    /** Events matching the filter in chain order, read in index-served pages. */
    async *events(filter: AuditFilter): AsyncGenerator<AuditEventRow> {
      const repo = createAuditRepository(db);
      let after = 0;
      for (;;) {
        const rows = await repo.page(filter, after, BATCH);
        yield* rows;
        if (rows.length < BATCH) return;
        after = rows[rows.length - 1]!.seq;
      }
    },

    /**
     * Walks the whole chain: each row's seq follows the previous one's, its prev_hash is
     * the previous hash and its hash matches its content; the head names the last row.
     * Reports the first row that breaks any of these (an edit, a deletion, an insertion).
     */
    async verify(): Promise<ChainReport> {
      const repo = createAuditRepository(db);
      const head = (await repo.head()) ?? null;
      let prev = { seq: 0, hash: GENESIS_HASH };
      let checked = 0;
      const report = (broken?: ChainReport["broken"]): ChainReport => ({
        ok: !broken,
        checked,
        headSeq: head?.seq ?? null,
        headHash: head?.hash ?? null,
        ...(broken ? { broken } : {}),
      });
      let after = 0;
      for (;;) {
        const rows = await repo.page({}, after, BATCH);
        for (const row of rows) {
          if (row.seq !== prev.seq + 1) {
            return report({ seq: row.seq, reason: `expected seq ${prev.seq + 1} (rows missing)` });
          }
          if (row.prevHash !== prev.hash) {
            return report({ seq: row.seq, reason: "prev_hash does not match the previous row" });
          }
          const { hash, ...fields } = row;
          if (auditHash({ ...fields, details: fields.details ?? {} }) !== hash) {
            return report({ seq: row.seq, reason: "content does not match its hash (edited)" });
          }
          prev = { seq: row.seq, hash };
          checked += 1;
        }
        if (rows.length < BATCH) break;
        after = rows[rows.length - 1]!.seq;
      }
      if ((head?.seq ?? 0) !== prev.seq || (head?.hash ?? GENESIS_HASH) !== prev.hash) {
        return report({
          seq: prev.seq + 1,
          reason: `the head names seq ${head?.seq ?? 0}: rows after ${prev.seq} are missing`,
        });
      }
      return report();
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
