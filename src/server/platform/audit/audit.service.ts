import { sql } from "drizzle-orm";
import type { AuditDetails, AuditEventType } from "../../../contract";
import type { Database, Executor } from "../../db/client";
import { type AuditFilter, type ChainHead, createAuditRepository } from "./audit.repository";
import type { AuditEventRow, LinkedAuditEventRow } from "./audit.table";
import { auditHash, GENESIS_HASH } from "./audit-hash";

/** The events that matter for credit: their types are declared in the contract. */
export type { AuditEventType };

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
  /**
   * Rows committed but not linked when the check ended: 0, or a few appended during the
   * check. A count that stays above 0 means the linker fails (its error is logged).
   */
  unlinked: number;
  /** The first row that does not fit the chain, and why. */
  broken?: { seq: number; reason: string };
}

/** Where the linker reports a failure; pino's (Fastify's) logger fits. */
interface AuditLog {
  error(obj: object, msg?: string): void;
}

export interface AuditServiceDeps {
  db: Database;
  log?: AuditLog;
  /** The background pass an append schedules runs this long after it (ms). */
  linkDelayMs?: number;
  /** The periodic pass, which also links rows appended by other instances (ms). */
  linkIntervalMs?: number;
}

const BATCH = 1000;
/** Background passes give way to a table lock (a migration, a TRUNCATE) and retry later. */
const BACKGROUND_LOCK_TIMEOUT = "250ms";

const consoleLog: AuditLog = {
  error: (obj, msg) => console.error(msg ?? "audit error", obj),
};

/** An event as its row: millisecond precision, as JavaScript reads it back (the hash must verify later). */
const toRow = (event: AuditEventInput) => ({
  at: new Date(),
  actorId: event.actor?.id ?? null,
  actorRole: event.actor?.role ?? null,
  type: event.type,
  learnerId: event.learnerId ?? null,
  courseId: event.courseId ?? null,
  moduleId: event.moduleId ?? null,
  details: event.details ?? {},
});

/**
 * The append-only, hash-chained audit trail of credit.
 *
 * Appends take no shared lock. `append` writes a row's content in the caller's
 * transaction, unlinked; the linker (`link`) gives committed rows their place in the chain
 * (seq, prev_hash, hash), in insertion order, one linker at a time under the head's lock.
 * Between `start()` and `stop()` it runs in the background: shortly after each append and
 * on an interval; `verify` and `events` link first, so they see every committed event.
 */
export function createAuditService(deps: AuditServiceDeps) {
  const { db } = deps;
  const log = deps.log ?? consoleLog;
  // A quarter of a second: under a stream of completions, passes every 50 ms were an eighth of
  // the portal's statements; a reader links what is left before it reads anyway.
  const linkDelayMs = deps.linkDelayMs ?? 250;
  const linkIntervalMs = deps.linkIntervalMs ?? 1_000;

  /**
   * One batch in one transaction: locks the head, links up to BATCH unlinked rows after
   * it, moves the head. "busy" when another linker holds the head and `wait` is false.
   */
  async function linkBatch(wait: boolean): Promise<number | "busy"> {
    return db.transaction(async (tx) => {
      const repo = createAuditRepository(tx);
      if (!wait) await tx.execute(sql.raw(`set local lock_timeout = '${BACKGROUND_LOCK_TIMEOUT}'`));
      // audit_events before audit_head: the lock order of a TRUNCATE of both (tests).
      if (!(await repo.hasUnlinked())) return 0;
      const head = await repo.lockHead({ wait });
      if (!head) return "busy";
      // Read after the lock: rows linked by the previous holder are seen as linked.
      const rows = await repo.unlinked(BATCH);
      let prev: ChainHead = head;
      const links = rows.map((row) => {
        const seq = prev.seq + 1;
        const hash = auditHash({ ...row, details: row.details ?? {}, seq, prevHash: prev.hash });
        const link = { id: row.id, seq, prevHash: prev.hash, hash };
        prev = { seq, hash };
        return link;
      });
      const linked = await repo.link(links);
      if (linked !== links.length) {
        throw new Error(`audit linker: ${linked} of ${links.length} rows linked, batch undone`);
      }
      if (links.length > 0) await repo.setHead(prev);
      return links.length;
    });
  }

  async function linkPass(wait: boolean): Promise<{ linked: number; busy: boolean }> {
    let linked = 0;
    for (;;) {
      // Outside any transaction: an idle pass costs one index probe.
      if (!(await createAuditRepository(db).hasUnlinked())) return { linked, busy: false };
      const n = await linkBatch(wait);
      if (n === "busy") return { linked, busy: true };
      linked += n;
      if (n < BATCH) return { linked, busy: false };
    }
  }

  // The background linker: at most one pass at a time in this process.
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  let interval: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let rerun = false;

  function schedule(): void {
    if (!started || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      runInBackground();
    }, linkDelayMs);
    timer.unref();
  }

  function runInBackground(): void {
    if (!started) return;
    if (running) {
      rerun = true;
      return;
    }
    running = linkPass(false)
      .then(
        ({ busy }) => {
          // Another linker may have read its batch before our rows committed: try again soon.
          if (busy) rerun = true;
        },
        (error: unknown) => {
          log.error({ err: error }, "audit linker failed; retrying on its next pass");
        },
      )
      .finally(() => {
        running = undefined;
        if (rerun) {
          rerun = false;
          schedule();
        }
      });
  }

  async function linkBeforeReading(): Promise<void> {
    try {
      await linkPass(true);
    } catch (error) {
      log.error({ err: error }, "audit linker failed; reading the chain as linked so far");
    }
  }

  return {
    /**
     * Appends one event inside the caller's transaction, so the event and the change it
     * records commit together or not at all. Takes no shared lock: the row is written
     * unlinked (seq, prev_hash and hash null) and the linker chains it after commit.
     * Returns the inserted row, unlinked.
     */
    async append(tx: Executor, event: AuditEventInput): Promise<AuditEventRow> {
      const row = await createAuditRepository(tx).insert(toRow(event));
      // Runs after a short delay, by when the caller's transaction has usually committed;
      // a later pass (the interval) picks up rows committed after it.
      schedule();
      return row;
    },

    /** Several events in one statement (a batch of completions), in the order given. */
    async appendMany(tx: Executor, events: AuditEventInput[]): Promise<void> {
      await createAuditRepository(tx).insertMany(events.map(toRow));
      schedule();
    },

    /**
     * Links every committed unlinked row now, waiting for a linker at work elsewhere.
     * Returns how many rows this call linked.
     */
    async link(): Promise<number> {
      return (await linkPass(true)).linked;
    },

    /** Starts the background linker (after appends, and every `linkIntervalMs`). */
    start(): void {
      if (started) return;
      started = true;
      interval = setInterval(runInBackground, linkIntervalMs);
      interval.unref();
      // Rows left unlinked by a stopped instance.
      schedule();
    },

    /** Stops the background linker and waits for a pass under way. */
    async stop(): Promise<void> {
      started = false;
      rerun = false;
      clearTimeout(timer);
      clearInterval(interval);
      timer = undefined;
      interval = undefined;
      await running;
    },

    /** Linked events matching the filter in chain order (linked first), read in index-served pages. */
    async *events(filter: AuditFilter): AsyncGenerator<LinkedAuditEventRow> {
      await linkBeforeReading();
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
     * One page of linked events matching the filter, newest first, before `beforeSeq`;
     * links every committed event first, so the newest are listed.
     */
    async newest(
      filter: AuditFilter,
      page: { beforeSeq?: number; limit: number },
    ): Promise<LinkedAuditEventRow[]> {
      await linkBeforeReading();
      return createAuditRepository(db).newest(filter, page.beforeSeq, page.limit);
    },

    /**
     * Links first, then walks the chain up to the head: each row's seq follows the previous
     * one's, its prev_hash is the previous hash and its hash matches its content; the head
     * names the last row, and no linked row lies beyond it. Reports the first row that
     * breaks any of these (an edit, a deletion, an insertion), and the rows still unlinked.
     */
    async verify(): Promise<ChainReport> {
      await linkBeforeReading();
      const repo = createAuditRepository(db);
      // Rows linked after this read are newer than the head: the walk stops at it.
      const head = (await repo.head()) ?? null;
      const headSeq = head?.seq ?? 0;
      let prev: ChainHead = { seq: 0, hash: GENESIS_HASH };
      let checked = 0;
      const report = async (broken?: ChainReport["broken"]): Promise<ChainReport> => ({
        ok: !broken,
        checked,
        headSeq: head?.seq ?? null,
        headHash: head?.hash ?? null,
        unlinked: await repo.countUnlinked(),
        ...(broken ? { broken } : {}),
      });
      let after = 0;
      for (;;) {
        const rows = await repo.page({}, after, BATCH, headSeq);
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
      if (headSeq !== prev.seq || (head?.hash ?? GENESIS_HASH) !== prev.hash) {
        return report({
          seq: prev.seq + 1,
          reason: `the head names seq ${headSeq}: rows after ${prev.seq} are missing`,
        });
      }
      const stray = await repo.firstBeyondHead();
      if (stray !== null) {
        return report({ seq: stray, reason: "beyond the head: written outside the chain" });
      }
      return report();
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
