import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import type { Database } from "../db/client";
import * as schema from "../db/schema";
import { createScratchDatabase } from "./test-database";

const migrationsFolder = fileURLToPath(new URL("../db/migrations", import.meta.url));

export interface MigrationScratch {
  db: Database;
  /** Runs the migrations before the one under test: the schema as a database before it saw it. */
  migrateBefore(): Promise<void>;
  /** Runs the rest, the migration under test among them. */
  migrateAll(): Promise<void>;
  close(): Promise<void>;
}

/**
 * An empty database for testing migration `idx` on data of the schema before it: PGlite in
 * memory, or a throwaway database on TEST_DATABASE_URL.
 */
export async function openMigrationScratch(idx: number): Promise<MigrationScratch> {
  const before = mkdtempSync(join(tmpdir(), "credo-migrations-"));
  cpSync(migrationsFolder, before, { recursive: true });
  const journalPath = join(before, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx < idx);
  writeFileSync(journalPath, JSON.stringify(journal));
  const removeBefore = () => rmSync(before, { recursive: true, force: true });

  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const scratch = await createScratchDatabase(serverUrl, "credo_test");
    const pool = new pg.Pool({ connectionString: scratch.url, max: 3 });
    const db = drizzlePg({ client: pool, schema, casing: "snake_case" }) as unknown as Database;
    const migrate = (folder: string) => migratePg(db as never, { migrationsFolder: folder });
    return {
      db,
      migrateBefore: () => migrate(before),
      migrateAll: () => migrate(migrationsFolder),
      close: async () => {
        await pool.end();
        await scratch.drop();
        removeBefore();
      },
    };
  }
  const client = new PGlite({ extensions: { pg_trgm } });
  const db = drizzlePglite({ client, schema, casing: "snake_case" }) as unknown as Database;
  const migrate = (folder: string) => migratePglite(db as never, { migrationsFolder: folder });
  return {
    db,
    migrateBefore: () => migrate(before),
    migrateAll: () => migrate(migrationsFolder),
    close: async () => {
      await client.close();
      removeBefore();
    },
  };
}
