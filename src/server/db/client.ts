import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import lockfile from "proper-lockfile";
import { type ChangeFeed, pgliteChangeFeed, postgresChangeFeed } from "./change-feed";
import * as schema from "./schema";

type Schema = typeof schema;
/** One type for both drivers: features never know which one runs. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
/** Repositories accept either, so a service can run several of them in one transaction. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /** Changes of cached rows, from this and every other instance (db/change-feed.ts). */
  changes: ChangeFeed;
  /** Cheap liveness query for /api/ready. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));
/** Arbitrary constant: every instance takes the same advisory lock around migrations. */
const MIGRATION_LOCK_ID = 7_311_042;

export class DataDirLockedError extends Error {}

/**
 * Locks `dataDir/db` against a second process (two processes on one PGlite directory
 * corrupt it). The lock goes stale 15 s after its holder died, so a crash never wedges it.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const dir = join(dataDir, "db");
  mkdirSync(dir, { recursive: true });
  try {
    return await lockfile.lock(dir, {
      lockfilePath: join(dataDir, "db.lock"),
      stale: 15_000,
      update: 5_000,
      onCompromised: (err) => {
        console.error(`Database lock lost: ${err.message}`);
      },
    });
  } catch {
    throw new DataDirLockedError(
      `The data directory ${dataDir} is in use by another Credo process. Stop it first, or set DATA_DIR to another directory.`,
    );
  }
}

/** Opens PGlite in `dataDir/db` (or in memory when dataDir is null), locked against a second process. */
export async function openPglite(
  dataDir: string | null,
  options: { loadDataDir?: Blob } = {},
): Promise<DatabaseHandle & { pglite: PGlite }> {
  const release = dataDir ? await lockDataDir(dataDir) : undefined;
  const pgliteOptions = { extensions: { pg_trgm }, loadDataDir: options.loadDataDir };
  const client = dataDir
    ? new PGlite(join(dataDir, "db"), pgliteOptions)
    : new PGlite(pgliteOptions);
  await client.waitReady;
  const db = drizzlePglite({ client, schema, casing: "snake_case" }) as unknown as Database;
  await migratePglite(db as never, { migrationsFolder });
  const changes = await pgliteChangeFeed(client);
  return {
    db,
    pglite: client,
    kind: "pglite",
    changes,
    ping: async () => {
      await client.query("select 1");
    },
    close: async () => {
      await changes.close();
      await client.close();
      await release?.();
    },
  };
}

/** Connects to PostgreSQL and runs migrations once, even when several instances start together. */
export async function openPostgres(
  url: string,
  options: { poolSize?: number; log?: (message: string, err?: unknown) => void } = {},
) {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 20,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on("error", () => {});
  // Nor may a client in use (a transaction between two statements): the pool reports its
  // loss on the client alone. Its next statement fails, and the pool then drops it.
  pool.on("connect", (client) => {
    client.on("error", (err) => options.log?.("database connection lost", err));
  });
  const db = drizzlePg({ client: pool, schema, casing: "snake_case" }) as unknown as Database;
  const lockClient = await pool.connect();
  try {
    await lockClient.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    await migratePg(db as never, { migrationsFolder });
  } finally {
    await lockClient.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
    lockClient.release();
  }
  const changes = await postgresChangeFeed(url, options.log);
  const handle: DatabaseHandle = {
    db,
    kind: "postgres",
    changes,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      await changes.close();
      await pool.end();
    },
  };
  return handle;
}

export async function openDatabase(
  config: { databaseUrl?: string; dataDir: string },
  options: { log?: (message: string, err?: unknown) => void } = {},
): Promise<DatabaseHandle> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, { log: options.log });
  mkdirSync(config.dataDir, { recursive: true });
  return openPglite(config.dataDir);
}
