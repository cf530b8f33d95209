import type { PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "../../db/client";
import type { AuditEventInput, AuditService } from "./audit.service";

/**
 * Records that the units of one transaction leave to be written together (an attempt
 * started, the audit events of the steps): one insert statement per table and one for the
 * audit events, in the order the units left them, instead of a statement each. Flushed
 * before completion is settled and when the transaction's units are done.
 */
export function createPendingWrites(audit: Pick<AuditService, "appendMany">) {
  const rows = new Map<PgTable, unknown[]>();
  let events: AuditEventInput[] = [];

  return {
    insert<T extends PgTable>(table: T, row: T["$inferInsert"]): void {
      const list = rows.get(table);
      if (list) list.push(row);
      else rows.set(table, [row]);
    },

    audit(event: AuditEventInput): void {
      events.push(event);
    },

    async flush(tx: Executor): Promise<void> {
      const tables = [...rows];
      const appended = events;
      rows.clear();
      events = [];
      for (const [table, list] of tables) {
        await tx.insert(table).values(list as PgTable["$inferInsert"][]);
      }
      if (appended.length) await audit.appendMany(tx, appended);
    },
  };
}

export type PendingWrites = ReturnType<typeof createPendingWrites>;
