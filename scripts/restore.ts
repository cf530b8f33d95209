/**
 * `npm run restore -- --from DIR`: puts a backup made by `npm run backup` back.
 *
 * PostgreSQL: pg_restore --clean into DATABASE_URL in one transaction, all or nothing (stop
 * the portal or expect brief errors).
 * The embedded PostgreSQL server: DATA_DIR/postgres must be empty or absent (stop the portal
 * and move it away).
 * Embedded PGlite: DATA_DIR/db must be empty or absent (stop the portal and move it away).
 */
import { cpSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { readCommandLine, runTool } from "./command-line";
import { runPostgresTool } from "./postgres-tools";

const { values, fail } = readCommandLine(
  "restore",
  `Usage: npm run restore -- --from DIR

Puts a backup made by \`npm run backup\` back: pg_restore --clean into DATABASE_URL, or the
embedded database into DATA_DIR (its postgres or db directory must be empty or absent; stop
the portal).`,
  { from: { type: "string" } },
);
const { buildConfig } = await import("../src/server/config");
const { openPglite } = await import("../src/server/db/client");
const { adoptCluster, clusterDirOf } = await import("../src/server/db/embedded-postgres");
const from = resolve(values.from ?? fail("--from is required"));
const config = buildConfig();
await runTool("restore", async () => {
  console.log(`Restoring from ${from}`);

  if (config.databaseUrl) {
    const dump = join(from, "database.pgdump");
    if (!existsSync(dump))
      throw new Error(`${dump} not found: this backup is not of a PostgreSQL database`);
    // One transaction: a restore that fails part-way (a damaged file, a lost connection)
    // leaves the database as it was, instead of with its tables dropped and half refilled.
    runPostgresTool(
      "pg_restore",
      ["--clean", "--if-exists", "--no-owner", "--single-transaction", dump],
      config.databaseUrl,
    );
    console.log("  PostgreSQL restored");
  } else if (existsSync(join(from, "postgres", "PG_VERSION"))) {
    const cluster = clusterDirOf(config.dataDir);
    if (existsSync(cluster) && readdirSync(cluster).length > 0) {
      throw new Error(
        `${cluster} is not empty: stop the portal and move it away before restoring.`,
      );
    }
    cpSync(join(from, "postgres"), cluster, { recursive: true, verbatimSymlinks: true });
    adoptCluster(cluster);
    console.log(`  embedded PostgreSQL restored into ${cluster}`);
  } else {
    const tarball = join(from, "pglite-data.tar.gz");
    if (!existsSync(tarball))
      throw new Error(`${tarball} not found: this backup is not of an embedded database`);
    const dbDir = join(config.dataDir, "db");
    if (existsSync(dbDir) && readdirSync(dbDir).length > 0) {
      throw new Error(`${dbDir} is not empty: stop the portal and move it away before restoring.`);
    }
    // Unpacked here: a copy cut short fails with its name, before PGlite writes anything.
    let tar: Buffer;
    try {
      tar = gunzipSync(readFileSync(tarball));
    } catch (error) {
      throw new Error(`${tarball} is damaged (${(error as Error).message})`);
    }
    const bytes = new Uint8Array(tar.buffer as ArrayBuffer, tar.byteOffset, tar.length);
    const handle = await openPglite(config.dataDir, { loadDataDir: new Blob([bytes]) });
    await handle.close();
    console.log(`  PGlite restored into ${dbDir}`);
  }
  if (existsSync(join(from, "objects")) && !config.s3) {
    cpSync(join(from, "objects"), join(config.dataDir, "objects"), { recursive: true });
    console.log("  objects restored");
  }
  console.log("Restore complete.");
});
