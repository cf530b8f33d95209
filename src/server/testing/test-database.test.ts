import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createAuditService } from "../platform/audit/audit.service";
import { GENESIS_HASH } from "../platform/audit/audit-hash";
import { someoneWaitsForALock, useScratchPostgres } from "./scratch-postgres";
import { createScratchDatabase, resetDatabase } from "./test-database";

const serverUrl = process.env.TEST_DATABASE_URL;

/**
 * The reset between tests runs while the app's background work may still be writing: the
 * audit linker of the test before, above all, whose chain the next test verifies.
 */
describe.skipIf(!serverUrl)("the reset between tests (PostgreSQL)", () => {
  const scratch = useScratchPostgres();

  it("deletes a chain head that a linker created and committed while the events were deleted", async () => {
    await createAuditService({ db: scratch.handle.db }).append(scratch.handle.db, {
      type: "module.completed",
      actor: null,
    });
    // A linker from the test before: it creates the head and links the event, uncommitted.
    const linker = new pg.Client({ connectionString: scratch.url });
    await linker.connect();
    try {
      await linker.query("begin");
      await linker.query("insert into audit_head (id, seq, hash) values (1, 0, $1)", [
        GENESIS_HASH,
      ]);
      await linker.query(
        "update audit_events set seq = 1, prev_hash = $1, hash = $2 where hash is null",
        [GENESIS_HASH, "1".repeat(64)],
      );
      const reset = resetDatabase(scratch.handle);
      while (!(await someoneWaitsForALock(scratch.handle.db))) await sleep(5);
      await linker.query("update audit_head set seq = 1, hash = $1", ["1".repeat(64)]);
      await linker.query("commit");
      await reset;
    } finally {
      await linker.end();
    }
    const left = await scratch.handle.db.execute(sql`select
      (select count(*) from audit_head)::int as head,
      (select count(*) from audit_events)::int as events`);
    expect((left as unknown as { rows: unknown[] }).rows[0]).toEqual({ head: 0, events: 0 });
  });
});

describe.skipIf(!serverUrl)("a scratch database's drop (PostgreSQL)", () => {
  it("lets a connection still saying goodbye close instead of cutting it", async () => {
    const scratch = await createScratchDatabase(serverUrl!, "credo_drop");
    // A pool's end() resolves while its connections are still closing: this one is late.
    const late = new pg.Client({ connectionString: scratch.url });
    const cut: unknown[] = [];
    late.on("error", (err) => cut.push(err));
    await late.connect();
    const dropped = scratch.drop();
    const observer = new pg.Client({ connectionString: serverUrl });
    await observer.connect();
    try {
      const waiting = async () =>
        (
          await observer.query(
            "select count(*)::int as n from pg_stat_activity where query like '%$wait$%' and wait_event = 'PgSleep'",
          )
        ).rows[0].n > 0;
      while (!(await waiting())) await sleep(5);
      await late.end();
      await dropped;
      const left = await observer.query("select 1 from pg_database where datname = $1", [
        new URL(scratch.url).pathname.slice(1),
      ]);
      expect(left.rowCount).toBe(0);
    } finally {
      await observer.end();
    }
    expect(cut).toEqual([]);
  });
});
