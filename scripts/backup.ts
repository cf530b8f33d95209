/**
 * `npm run backup -- [--out DIR]`: a consistent copy of the database and the local objects.
 *
 * PostgreSQL (DATABASE_URL): pg_dump in custom format, taken while the portal runs.
 * The embedded PostgreSQL server: a copy of its cluster, cleanly shut down; stop the portal
 * first (the data directory's lock says so).
 * Embedded PGlite: a tarball of its data directory; stop the portal first.
 * Objects: a copy of DATA_DIR/objects; with S3 use the bucket's versioning or replication.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { readCommandLine, runTool } from "./command-line";
import { runPostgresTool } from "./postgres-tools";

const { values } = readCommandLine(
  "backup",
  `Usage: npm run backup -- [--out DIR]

Copies the database (pg_dump of DATABASE_URL, or the embedded database in DATA_DIR: stop
the portal first) and the local objects into DIR (default backups/credo-<time>).`,
  { out: { type: "string" } },
);
const { buildConfig } = await import("../src/server/config");
const { expectExistingDatabase, lockDataDir, openPglite } = await import("../src/server/db/client");
const { clusterDirOf, startEmbeddedPostgres } = await import("../src/server/db/embedded-postgres");
const config = buildConfig();
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const out = resolve(values.out ?? join("backups", `credo-${stamp}`));
await runTool("backup", async () => {
  expectExistingDatabase(config);
  mkdirSync(out, { recursive: true });

  const step = (text: string) => process.stdout.write(`  ${text} ... `);
  const done = () => process.stdout.write("done\n");
  console.log(`Backing up to ${out}`);
  let database = config.databaseUrl ? "postgres" : "pglite";

  if (config.databaseUrl) {
    step("PostgreSQL (pg_dump)");
    runPostgresTool(
      "pg_dump",
      ["--format=custom", "--no-owner", `--file=${join(out, "database.pgdump")}`],
      config.databaseUrl,
    );
    done();
  } else if (existsSync(join(clusterDirOf(config.dataDir), "PG_VERSION"))) {
    const cluster = clusterDirOf(config.dataDir);
    step(`embedded PostgreSQL (${cluster})`);
    const release = await lockDataDir(config.dataDir);
    try {
      // Started and stopped once: a server left running by a killed portal is shut down,
      // and a cluster after a crash is recovered, so the copy is of a clean shutdown.
      const server = await startEmbeddedPostgres(config.dataDir, () => {});
      await server.stop();
      cpSync(cluster, join(out, "postgres"), { recursive: true, verbatimSymlinks: true });
    } finally {
      await release();
    }
    database = "embedded-postgres";
    done();
  } else {
    step(`PGlite (${config.dataDir}/db)`);
    const handle = await openPglite(config.dataDir);
    try {
      const tarball = await handle.pglite.dumpDataDir("gzip");
      writeFileSync(join(out, "pglite-data.tar.gz"), Buffer.from(await tarball.arrayBuffer()));
    } finally {
      await handle.close();
    }
    done();
  }

  const objects = join(config.dataDir, "objects");
  let objectCount = 0;
  if (!config.s3 && existsSync(objects)) {
    step("objects");
    cpSync(objects, join(out, "objects"), { recursive: true });
    objectCount = readdirSync(objects).length;
    done();
  }
  writeFileSync(
    join(out, "manifest.json"),
    `${JSON.stringify({ createdAt: new Date().toISOString(), database, objects: config.s3 ? "s3 (not copied)" : objectCount }, null, 2)}\n`,
  );
  console.log(`Backup complete: ${out}`);
});
