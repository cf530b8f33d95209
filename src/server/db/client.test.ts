import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { users } from "../people/auth/auth.table";
import { createScratchDatabase } from "../testing/test-database";
import { DataDirLockedError, openPglite, openPostgres } from "./client";

describe("embedded PGlite database", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "credo-db-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("locks its data directory: a second opener is refused until the first closes", async () => {
    const first = await openPglite(dataDir);
    try {
      await first.db
        .insert(users)
        .values({ name: "Kept", email: "kept@example.com", role: "learner" });
      const second = openPglite(dataDir);
      await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
      await expect(second).rejects.toThrow(
        `The data directory ${dataDir} is in use by another Credo process. Stop it first, or set DATA_DIR to another directory.`,
      );
      // The refused opener did not disturb the running one.
      await first.ping();
    } finally {
      await first.close();
    }

    const reopened = await openPglite(dataDir);
    try {
      await reopened.ping();
      // Same directory, migrations already applied: the data survived the restart.
      const rows = await reopened.db.select({ email: users.email }).from(users);
      expect(rows).toEqual([{ email: "kept@example.com" }]);
      const result = await reopened.db.execute(sql`select count(*)::int as n from users`);
      expect((result as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(1);
    } finally {
      await reopened.close();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("PostgreSQL database", () => {
  it("lives on when a connection in use is cut between two statements (a restart)", async () => {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, "credo_client");
    const lost: unknown[] = [];
    const database = await openPostgres(scratch.url, { log: (_message, err) => lost.push(err) });
    try {
      const transaction = database.db.transaction(async (tx) => {
        const { rows } = (await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as {
          rows: { pid: number }[];
        };
        // Cut from another connection, as a database restart does, between two statements.
        await database.db.execute(sql`select pg_terminate_backend(${rows[0]!.pid})`);
        await vi.waitFor(() => expect(lost).not.toHaveLength(0));
        await tx.execute(sql`select 1`);
      });
      await expect(transaction).rejects.toThrow();
      // The pool drops the broken connection and carries on with a fresh one.
      await database.ping();
    } finally {
      await database.close();
      await scratch.drop();
    }
  });
});
