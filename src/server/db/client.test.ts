import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { users } from "../features/auth/auth.table";
import { DataDirLockedError, openPglite } from "./client";

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
