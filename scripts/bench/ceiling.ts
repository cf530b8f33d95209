/**
 * The embedded database's own ceiling: the pgbench of the embedded mode. Primary-key reads,
 * then one-row updates, of a table of its own, from many clients in a loop, with no HTTP in
 * between, in the process arrangement the portal itself uses:
 * - the embedded PostgreSQL server, reached over its socket with the portal's pool of 20;
 * - PGlite inside this process, as the portal ran it before;
 * - PGlite behind `@electric-sql/pglite-socket` in a child process, through node-postgres
 *   with one connection (its one session cannot keep several transactions apart).
 *
 * While the loop runs, this process's event-loop delay shows what the portal's own requests
 * would wait: with PGlite in-process every statement runs on that thread.
 */
import { randomInt } from "node:crypto";
import { monitorEventLoopDelay } from "node:perf_hooks";
import pg from "pg";
import { lockDataDir, openPglite } from "../../src/server/db/client";
import { startEmbeddedPostgres } from "../../src/server/db/embedded-postgres";
import { latencyLog } from "./latency";
import type { ScenarioResult } from "./report";

export type Engine = "embedded-postgres" | "pglite";

const ENGINE_TITLES: Record<Engine, string> = {
  "embedded-postgres": "embedded PostgreSQL server (own processes, pool of 20)",
  pglite: "PGlite in the portal's process",
};

interface Rate {
  perSecond: number;
  p50: number;
  p99: number;
  /** p99 of this process's event-loop delay during the loop, in ms. */
  loopDelayP99: number;
}

export interface Ceiling {
  /** The engine and its process arrangement, as the report prints it. */
  engine: string;
  /** From nothing to the first answered statement, in ms (a fresh data directory). */
  openMs: number;
  reads: Rate;
  updates: Rate;
}

const ROWS = 100_000;
const TABLE = "bench_ceiling";

interface Connection {
  query(text: string, params?: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}

async function connect(engine: Engine, dataDir: string): Promise<Connection> {
  if (engine === "pglite") {
    const handle = await openPglite(dataDir);
    return {
      query: (text, params) => handle.pglite.query(text, params),
      close: () => handle.close(),
    };
  }
  const release = await lockDataDir(dataDir);
  const server = await startEmbeddedPostgres(dataDir, () => {});
  const pool = new pg.Pool({ connectionString: server.url, max: 20 });
  // An idle connection cut by a server restart is reported on the pool: the loop's next
  // statement fails instead, which is what the measurement should show.
  pool.on("error", () => {});
  return {
    query: (text, params) => pool.query(text, params),
    close: async () => {
      await pool.end();
      await server.stop();
      await release();
    },
  };
}

async function loop(
  connection: Pick<Connection, "query">,
  statement: string,
  seconds: number,
  clients: number,
): Promise<Rate> {
  const log = latencyLog();
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        await connection.query(statement, [randomInt(ROWS) + 1]);
        log.add(performance.now() - t);
      }
    }),
  );
  delay.disable();
  const elapsed = performance.now() - started;
  const step = log.step(elapsed / 1000);
  return {
    perSecond: step.rps,
    p50: step.p50,
    p99: step.p99,
    // No sample at all: the thread never reached its timers for the whole loop.
    loopDelayP99: delay.count === 0 ? elapsed : delay.percentile(99) / 1e6,
  };
}

/**
 * Measures one engine in `dataDir` (the portal's data directory, or a fresh one): makes its
 * table, warms up, reads, updates, and drops the table again.
 */
export async function measureCeiling(
  engine: Engine,
  dataDir: string,
  options: CeilingOptions,
): Promise<Ceiling> {
  const opening = performance.now();
  const connection = await connect(engine, dataDir);
  try {
    await connection.query("select 1");
    return {
      engine: ENGINE_TITLES[engine],
      ...(await measureConnection(connection, options)),
      openMs: performance.now() - opening,
    };
  } finally {
    await connection.close();
  }
}

interface CeilingOptions {
  seconds: number;
  warmup: number;
  clients: number;
}

/** The loop itself, on any connection that speaks SQL with $1 parameters. */
async function measureConnection(
  connection: Pick<Connection, "query">,
  options: CeilingOptions,
): Promise<Pick<Ceiling, "reads" | "updates">> {
  try {
    await connection.query(`drop table if exists ${TABLE}`);
    await connection.query(
      `create table ${TABLE} (id integer primary key, n integer not null default 0, filler text not null default repeat('x', 80))`,
    );
    await connection.query(`insert into ${TABLE} (id) select generate_series(1, ${ROWS})`);
    await connection.query(`vacuum analyze ${TABLE}`);
    const read = `select id, n, filler from ${TABLE} where id = $1`;
    const update = `update ${TABLE} set n = n + 1 where id = $1`;
    if (options.warmup > 0) await loop(connection, read, options.warmup, options.clients);
    const reads = await loop(connection, read, options.seconds, options.clients);
    const updates = await loop(connection, update, options.seconds, options.clients);
    return { reads, updates };
  } finally {
    await connection.query(`drop table if exists ${TABLE}`).catch(() => {});
  }
}

export function ceilingLine(c: Ceiling): string {
  const rate = (r: Rate) =>
    `${r.perSecond.toFixed(0)}/s (p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, portal thread delay p99 ${r.loopDelayP99.toFixed(1)} ms)`;
  return `${c.engine}: reads ${rate(c.reads)}; updates ${rate(c.updates)}`;
}

/** Routes that write: read as a share of the update ceiling, the others of the read ceiling. */
const WRITES = /progress|heartbeat|exam/;

/** The ceiling, and each portal scenario as a share of it (as pgbench is to PostgreSQL's). */
export function markdownCeiling(c: Ceiling, results: ScenarioResult[]): string {
  const rate = (r: Rate) =>
    `${r.perSecond.toFixed(0)}/s, p99 ${r.p99.toFixed(1)} ms, portal thread delay p99 ${r.loopDelayP99.toFixed(1)} ms`;
  const rows = results
    .filter((r) => r.target === "portal" && r.group !== "video" && !r.crowd)
    .map((r) => {
      const write = WRITES.test(r.id);
      const of = write ? c.updates.perSecond : c.reads.perSecond;
      return `| ${r.title} | ${r.rps.toFixed(0)} | ${((r.rps / of) * 100).toFixed(0)}% of ${write ? "updates" : "reads"} |`;
    });
  return [
    `Database ceiling (${c.engine}): reads ${rate(c.reads)}; updates ${rate(c.updates)}.`,
    "",
    "| scenario | req/s | share of the ceiling |",
    "|---|---|---|",
    ...rows,
  ].join("\n");
}
