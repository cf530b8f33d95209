import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { inArray, sql } from "drizzle-orm";
import type pg from "pg";
import { afterAll, describe, expect, inject, it, vi } from "vitest";
import { createLearnersRepository } from "../administration/learners/learners.repository";
import { createLearnersService } from "../administration/learners/learners.service";
import { buildConfig } from "../config";
import { users } from "../people/auth/auth.table";
import { alive, embeddedServerPid } from "../testing/embedded-server";
import { openDatabase, openEmbeddedPostgres, openPglite } from "./client";
import { clusterDirOf, embeddedPostgresUnavailable } from "./embedded-postgres";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const migrationsJournal = fileURLToPath(
  new URL("./migrations/meta/_journal.json", import.meta.url),
);

const dirs: string[] = [];
function tempDataDir() {
  const dir = mkdtempSync(join(tmpdir(), "credo-embedded-"));
  dirs.push(dir);
  return dir;
}

const emailsIn = async (
  db: Awaited<ReturnType<typeof openEmbeddedPostgres>>["db"],
  emails: string[],
) =>
  (await db.select({ email: users.email }).from(users).where(inArray(users.email, emails)))
    .map((r) => r.email)
    .sort();

afterAll(async () => {
  // A test that failed half-way may leave its server running: it is stopped here, so no
  // PostgreSQL outlives the run.
  for (const dir of dirs) {
    const pid = embeddedServerPid(dir);
    if (pid !== undefined) {
      process.kill(pid, "SIGQUIT");
      await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 30_000, interval: 50 });
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * PGlite in `dataDir/db`, from the run's migrated template when there is one: migrating a
 * new PGlite database on disk takes many seconds.
 */
function pgliteIn(dataDir: string) {
  const template = inject("pgliteTemplate");
  return openPglite(dataDir, template ? { loadDataDir: new Blob([readFileSync(template)]) } : {});
}

const probeDir = tempDataDir();
const unavailable = await embeddedPostgresUnavailable(probeDir);

describe.skipIf(unavailable)("embedded PostgreSQL server", () => {
  // One cluster for the tests below: each opens and closes its own handle on it, and each
  // would create it if it were missing, but initdb is the slowest step of all.
  const dataDir = tempDataDir();

  it("creates its cluster and migrates it on first start; rows survive a close and a reopen", async () => {
    const first = await openEmbeddedPostgres(dataDir);
    let pid: number | undefined;
    try {
      pid = first.server.pid;
      expect(pid).toBeGreaterThan(0);
      expect(existsSync(join(dataDir, "postgres", "PG_VERSION"))).toBe(true);
      expect(first.location).toBe(`embedded PostgreSQL in ${join(dataDir, "postgres")}`);
      // Every migration ran: the portal's tables are there.
      const applied = (await first.db.execute(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      )) as unknown as { rows: { n: number }[] };
      const journal = JSON.parse(readFileSync(migrationsJournal, "utf8")) as { entries: unknown[] };
      expect(applied.rows[0]!.n).toBe(journal.entries.length);
      await first.db
        .insert(users)
        .values({ name: "Kept", email: "kept@example.com", role: "learner" });
      // The server's contrib pg_trgm serves the Learners search: any part, any case.
      const search = createLearnersRepository(first.db);
      for (const q of ["EPT@EXAMPLE", "kE", "Kept"]) {
        const found = await search.page({ limit: 26, q });
        expect(
          found.map((row) => JSON.parse(row.json).email),
          q,
        ).toEqual(["kept@example.com"]);
      }
      // The search index finds the same learners as the server's own search, accents and all:
      // the cluster's letters fold case as Unicode does (C.UTF-8), not as ASCII alone.
      const [zoe] = await first.db
        .insert(users)
        .values({ name: "ZOË Müller", email: "zm@example.com", role: "learner" })
        .returning({ id: users.id });
      const learners = createLearnersService({ db: first.db, changes: first.changes });
      for (const q of ["zoë", "ZOË", "MÜLLER", "müller", "kept", "example", "nobody"]) {
        const expected = (await search.page({ limit: 26, q })).map((row) => row.id);
        if (/[ëËüÜ]/.test(q)) expect(expected, q).toEqual([zoe!.id]);
        const { json } = await learners.page({ limit: 25, q });
        expect(
          (JSON.parse(json) as { id: string }[]).map((l) => l.id),
          q,
        ).toEqual(expected);
      }
      const indexes = (await first.db.execute(
        sql`select indexname from pg_indexes where indexname like 'users_%_trgm_idx' order by 1`,
      )) as unknown as { rows: { indexname: string }[] };
      expect(indexes.rows.map((r) => r.indexname)).toEqual([
        "users_email_trgm_idx",
        "users_name_trgm_idx",
      ]);
    } finally {
      await first.close();
    }
    // Closing the handle stops its server.
    expect(alive(pid!)).toBe(false);
    expect(embeddedServerPid(dataDir)).toBeUndefined();

    // The default, with no setting, finds the cluster again.
    const reopened = await openDatabase(buildConfig({ DATA_DIR: dataDir }));
    try {
      expect(reopened.kind).toBe("postgres");
      expect(await emailsIn(reopened.db, ["kept@example.com"])).toEqual(["kept@example.com"]);
    } finally {
      await reopened.close();
    }
    expect(embeddedServerPid(dataDir)).toBeUndefined();
  });

  it("starts its server again when it is killed under an open handle; committed rows stay", async () => {
    const logged: string[] = [];
    const handle = await openEmbeddedPostgres(dataDir, { log: (message) => logged.push(message) });
    let restarted: number | undefined;
    try {
      await handle.db
        .insert(users)
        .values({ name: "Committed", email: "committed@example.com", role: "learner" });
      const killed = handle.server.pid!;
      // A statement under way when the server dies fails; its caller never saw it succeed.
      const inFlight = handle.db.execute(sql`select pg_sleep(60)`);
      inFlight.catch(() => {});
      await vi.waitFor(
        async () => {
          const active = (await handle.db.execute(
            sql`select count(*)::int as n from pg_stat_activity where query = 'select pg_sleep(60)'`,
          )) as unknown as { rows: { n: number }[] };
          expect(active.rows[0]!.n).toBe(1);
        },
        { timeout: 30_000, interval: 20 },
      );
      process.kill(killed, "SIGKILL");
      await expect(inFlight).rejects.toThrow();

      // The server comes back by itself: a write is retried until it is answered.
      await vi.waitFor(
        () =>
          handle.db
            .insert(users)
            .values({ name: "After", email: "after@example.com", role: "learner" })
            .onConflictDoNothing(),
        { timeout: 60_000, interval: 50 },
      );
      restarted = handle.server.pid;
      expect(restarted).toBeGreaterThan(0);
      expect(restarted).not.toBe(killed);
      expect(alive(killed)).toBe(false);
      expect(logged).toContain("embedded PostgreSQL exited (SIGKILL); restarting it");
      expect(await emailsIn(handle.db, ["after@example.com", "committed@example.com"])).toEqual([
        "after@example.com",
        "committed@example.com",
      ]);
    } finally {
      await handle.close();
    }
    // The server started in its place is stopped with the handle, like the first.
    expect(alive(restarted!)).toBe(false);
    expect(embeddedServerPid(dataDir)).toBeUndefined();
  });

  it("gets back a pooled connection lost under a transaction's BEGIN", async () => {
    // Two connections, the fewest that migrating needs (one holds the migration lock).
    const handle = await openEmbeddedPostgres(dataDir, { poolSize: 2 });
    const pool = (handle.db as unknown as { $client: pg.Pool }).$client;
    try {
      // The pool hands out the connection released last: this one again, below.
      const backend = (await handle.db.execute(sql`select pg_backend_pid() as pid`)) as unknown as {
        rows: { pid: number }[];
      };
      const pid = backend.rows[0]!.pid;
      // Its server process stops answering, then dies: the BEGIN sent to it meanwhile fails
      // with the connection.
      process.kill(pid, "SIGSTOP");
      const transaction = handle.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
      });
      transaction.catch(() => {});
      // The pool hands the connection over and BEGIN is written within one turn of the
      // event loop: no I/O is awaited in between.
      await new Promise((resolve) => setImmediate(resolve));
      process.kill(pid, "SIGKILL");
      await expect(transaction).rejects.toThrow();
      // PostgreSQL restarts its processes after the crash; the pool connects afresh.
      await vi.waitFor(() => handle.ping(), { timeout: 60_000, interval: 50 });
      // No connection is left held by the failed transaction.
      expect(pool.idleCount).toBe(pool.totalCount);
    } finally {
      await handle.close();
    }
  });

  it("stops a server left running by a portal that was killed, and starts its own", async () => {
    // A portal of its own, in a process of its own: it starts the server, writes, and is
    // killed with no chance to stop what it started.
    const portal = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `
        const { startEmbeddedPostgres } = await import("./src/server/db/embedded-postgres.ts");
        const { default: pg } = await import("pg");
        const server = await startEmbeddedPostgres(process.env.DATA_DIR, () => {});
        const client = new pg.Client({ connectionString: server.url });
        await client.connect();
        await client.query("create table left_behind (note text)");
        await client.query("insert into left_behind values ('written before the portal vanished')");
        await client.end();
        console.log("running " + server.pid);
        setInterval(() => {}, 60_000);
        `,
      ],
      { cwd: root, env: { ...process.env, DATA_DIR: dataDir }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    const orphan = await new Promise<number>((resolve, reject) => {
      const onData = (data: Buffer) => {
        output += data;
        const found = /running (\d+)/.exec(output);
        if (found) resolve(Number(found[1]));
      };
      portal.stdout.on("data", onData);
      portal.stderr.on("data", onData);
      portal.once("exit", () => reject(new Error(`the portal exited early:\n${output}`)));
    });
    const gone = new Promise((resolve) => portal.once("exit", resolve));
    portal.kill("SIGKILL");
    await gone;
    // Its server lives on, with nobody left to stop it.
    expect(alive(orphan)).toBe(true);

    const logged: string[] = [];
    const handle = await openEmbeddedPostgres(dataDir, { log: (message) => logged.push(message) });
    let replacement: number | undefined;
    try {
      expect(logged).toContain(
        `stopping the embedded PostgreSQL (pid ${orphan}) left by an earlier portal`,
      );
      expect(alive(orphan)).toBe(false);
      replacement = handle.server.pid;
      expect(replacement).not.toBe(orphan);
      expect(embeddedServerPid(dataDir)).toBe(replacement);
      const kept = (await handle.db.execute(sql`select note from left_behind`)) as unknown as {
        rows: { note: string }[];
      };
      expect(kept.rows).toEqual([{ note: "written before the portal vanished" }]);
    } finally {
      await handle.close();
    }
    expect(alive(replacement!)).toBe(false);
  });

  it("uses PGlite when EMBEDDED_DATABASE=pglite, though the directory holds a cluster too", async () => {
    // A directory with both: its cluster (made by the tests above, unless run alone) and a
    // PGlite database.
    if (!existsSync(join(clusterDirOf(dataDir), "PG_VERSION"))) {
      await (await openEmbeddedPostgres(dataDir)).close();
    }
    await (await pgliteIn(dataDir)).close();

    // With no setting, the cluster wins; the setting picks PGlite.
    const byDefault = await openDatabase(buildConfig({ DATA_DIR: dataDir }));
    try {
      expect(byDefault.kind).toBe("postgres");
    } finally {
      await byDefault.close();
    }
    const chosen = await openDatabase(
      buildConfig({ DATA_DIR: dataDir, EMBEDDED_DATABASE: "pglite" }),
    );
    try {
      expect(chosen.kind).toBe("pglite");
      expect(chosen.location).toBe(`embedded PGlite in ${join(dataDir, "db")}`);
    } finally {
      await chosen.close();
    }
    expect(embeddedServerPid(dataDir)).toBeUndefined();
  });
});

describe("the embedded engine of a data directory that holds PGlite", () => {
  it("stays on PGlite with no setting, and creates no cluster beside it", async () => {
    const dataDir = tempDataDir();
    const before = await pgliteIn(dataDir);
    try {
      await before.db
        .insert(users)
        .values({ name: "Stays", email: "stays@example.com", role: "learner" });
    } finally {
      await before.close();
    }
    expect(existsSync(join(dataDir, "db", "PG_VERSION"))).toBe(true);

    const logged: string[] = [];
    const handle = await openDatabase(buildConfig({ DATA_DIR: dataDir }), {
      log: (message) => logged.push(message),
    });
    try {
      expect(handle.kind).toBe("pglite");
      expect(handle.location).toBe(`embedded PGlite in ${join(dataDir, "db")}`);
      expect(logged).toEqual([
        `${dataDir}/db holds a PGlite database made by an earlier version: using PGlite. New data directories get the embedded PostgreSQL server.`,
      ]);
      expect(await emailsIn(handle.db, ["stays@example.com"])).toEqual(["stays@example.com"]);
    } finally {
      await handle.close();
    }
    expect(existsSync(clusterDirOf(dataDir))).toBe(false);
  });
});
