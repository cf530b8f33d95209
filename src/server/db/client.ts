import { existsSync, mkdirSync } from "node:fs";
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
import {
  clusterDirOf,
  type EmbeddedPostgres,
  embeddedPostgresUnavailable,
  startEmbeddedPostgres,
} from "./embedded-postgres";
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
  /** Where the data lives, for the start-up banner: "embedded PostgreSQL in …". */
  location?: string;
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

/** A command-line tool was pointed at a data directory that holds no database. */
export class NoDatabaseError extends Error {}

/**
 * Stops a command-line tool whose DATA_DIR holds no embedded database (a mistyped path, or
 * the default ./data of another working directory): opening it would make a new, empty
 * database there, which the tool would then back up, or vouch for, as the portal's.
 */
export function expectExistingDatabase(config: { databaseUrl?: string; dataDir: string }): void {
  if (config.databaseUrl) return;
  const pglite = join(config.dataDir, "db", "PG_VERSION");
  const cluster = join(clusterDirOf(config.dataDir), "PG_VERSION");
  if (!existsSync(pglite) && !existsSync(cluster)) {
    throw new NoDatabaseError(
      `No database in ${config.dataDir}: set DATA_DIR to the portal's data directory, or DATABASE_URL.`,
    );
  }
}

/**
 * Locks the data directory against a second process (two processes on one PGlite
 * directory corrupt it; two on one embedded cluster would stop each other's server). The lock goes stale 15 s after its holder died, so a crash never wedges it.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  mkdirSync(dataDir, { recursive: true });
  try {
    return await lockfile.lock(dataDir, {
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
    location: dataDir ? `embedded PGlite in ${join(dataDir, "db")}` : "PGlite in memory",
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

/** Releases a held client whose connection ended; its holder's own release then does nothing. */
function releaseLostClient(this: pg.PoolClient) {
  const release = this.release;
  this.release = () => {};
  release(new Error("database connection lost"));
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
  let closing = false;
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on("error", () => {});
  // Nor may a client in use (a transaction between two statements): the pool reports its
  // loss on the client alone. Its next statement fails, and the pool then drops it.
  // Once closing, it is no news: the server may cut connections still saying goodbye.
  pool.on("connect", (client) => {
    client.on("error", (err) => {
      if (!closing) options.log?.("database connection lost", err);
    });
  });
  // A client whose connection ends while it is held goes back to the pool at once.
  // drizzle's transaction() sends BEGIN before its try/finally, so a BEGIN that fails on a
  // connection cut under it (the server restarted) never releases its client: each time,
  // the pool would lose a connection for good, and pool.end() would wait for it forever.
  pool.on("acquire", (client) => client.once("end", releaseLostClient));
  pool.on("release", (_err, client) => client.removeListener("end", releaseLostClient));
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
      closing = true;
      await changes.close();
      await pool.end();
    },
  };
  return handle;
}

/**
 * The embedded database, without DATABASE_URL: a PostgreSQL server the portal runs itself
 * (db/embedded-postgres.ts), locked to this data directory and stopped with the handle.
 */
export async function openEmbeddedPostgres(
  dataDir: string,
  options: { poolSize?: number; log?: (message: string, err?: unknown) => void } = {},
): Promise<DatabaseHandle & { server: EmbeddedPostgres }> {
  const log = options.log ?? (() => {});
  const release = await lockDataDir(dataDir);
  let server: EmbeddedPostgres | undefined;
  try {
    server = await startEmbeddedPostgres(dataDir, log);
    const handle = await openPostgres(server.url, options);
    const running = server;
    return {
      ...handle,
      kind: "postgres",
      location: `embedded PostgreSQL in ${running.clusterDir}`,
      server: running,
      close: async () => {
        await handle.close();
        await running.stop();
        await release();
      },
    };
  } catch (err) {
    await server?.stop();
    await release();
    throw err;
  }
}

/**
 * Which embedded database a data directory uses: one that already holds a PGlite database
 * keeps it (nothing is moved behind the provider's back), PGlite when asked for or when no
 * PostgreSQL binaries can run here, the embedded PostgreSQL server otherwise.
 */
async function embeddedEngine(
  config: { dataDir: string; embeddedDatabase?: "postgres" | "pglite" },
  log: (message: string) => void,
): Promise<"postgres" | "pglite"> {
  if (config.embeddedDatabase === "pglite") return "pglite";
  const hasPglite = existsSync(join(config.dataDir, "db", "PG_VERSION"));
  const hasCluster = existsSync(join(clusterDirOf(config.dataDir), "PG_VERSION"));
  if (hasPglite && !hasCluster && !config.embeddedDatabase) {
    log(
      `${config.dataDir}/db holds a PGlite database made by an earlier version: using PGlite. New data directories get the embedded PostgreSQL server.`,
    );
    return "pglite";
  }
  const unavailable = await embeddedPostgresUnavailable(config.dataDir);
  if (!unavailable) return "postgres";
  if (config.embeddedDatabase === "postgres") {
    throw new Error(`The embedded PostgreSQL server cannot run here: ${unavailable}.`);
  }
  log(`The embedded PostgreSQL server cannot run here (${unavailable}): using PGlite.`);
  return "pglite";
}

export async function openDatabase(
  config: { databaseUrl?: string; dataDir: string; embeddedDatabase?: "postgres" | "pglite" },
  options: { log?: (message: string, err?: unknown) => void } = {},
): Promise<DatabaseHandle> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, { log: options.log });
  mkdirSync(config.dataDir, { recursive: true });
  const log = options.log ?? ((message: string) => console.warn(message));
  if ((await embeddedEngine(config, log)) === "pglite") return openPglite(config.dataDir);
  return openEmbeddedPostgres(config.dataDir, { log });
}
