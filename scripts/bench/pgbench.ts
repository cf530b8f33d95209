/**
 * PostgreSQL's own ceiling on the same server in the same run: `pgbench -N` (an update, a
 * select and an insert per transaction, each committed durably) and `pgbench -S` (one indexed
 * select), from as many clients as the portal's scenarios use, against a scratch database
 * made for it and dropped afterwards. The portal's writes are judged against `-N` as its reads
 * are against hello world: a slow disk slows both, and the ratio stays.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import type { ScenarioResult } from "./report";

interface PgbenchRate {
  tps: number;
  /** pgbench's "latency average", in ms. */
  latencyMs: number;
}

export interface Pgbench {
  binary: string;
  clients: number;
  seconds: number;
  /** -N: TPC-B without the branch and teller updates. */
  write: PgbenchRate;
  /** -S: primary-key selects only. */
  read: PgbenchRate;
}

/** pgbench on PATH, else the newest in Debian's /usr/lib/postgresql/<version>/bin. */
export function pgbenchBinary(): string | null {
  const onPath = spawnSync("pgbench", ["--version"], { encoding: "utf8" });
  if (onPath.status === 0) return "pgbench";
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, "bin/pgbench")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(base, versions[0], "bin/pgbench") : null;
}

function run(binary: string, args: string[]): string {
  const result = spawnSync(binary, args, { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  if (result.status !== 0) {
    throw new Error(`pgbench ${args.join(" ")}: ${result.stderr || result.stdout}`);
  }
  return result.stdout;
}

function rateOf(output: string): PgbenchRate {
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(output);
  const latency = /latency average = ([\d.]+) ms/.exec(output);
  if (!tps || !latency) throw new Error(`pgbench: unexpected output\n${output}`);
  return { tps: Number(tps[1]), latencyMs: Number(latency[1]) };
}

/** Runs `administer` on the server's maintenance database (where a database is created). */
async function onServer(url: string, administer: (client: pg.Client) => Promise<unknown>) {
  const target = new URL(url);
  target.pathname = "/postgres";
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  try {
    await administer(client);
  } finally {
    await client.end();
  }
}

/**
 * Measures -N then -S on a scratch database beside `databaseUrl`'s (its name with
 * `_pgbench`), made at scale 1 (100,000 accounts) and dropped at the end.
 */
export async function measurePgbench(
  binary: string,
  databaseUrl: string,
  options: { clients: number; seconds: number },
): Promise<Pgbench> {
  const scratch = new URL(databaseUrl);
  const name = `${decodeURIComponent(scratch.pathname.slice(1))}_pgbench`;
  scratch.pathname = `/${encodeURIComponent(name)}`;
  const quoted = `"${name.replace(/"/g, '""')}"`;
  await onServer(databaseUrl, async (client) => {
    await client.query(`drop database if exists ${quoted}`);
    await client.query(`create database ${quoted}`);
  });
  try {
    const url = scratch.toString();
    run(binary, ["-i", "-q", "-s", "1", url]);
    const load = [
      "-n",
      "-c",
      String(options.clients),
      "-j",
      "2",
      "-T",
      String(options.seconds),
      url,
    ];
    const write = rateOf(run(binary, ["-N", ...load]));
    const read = rateOf(run(binary, ["-S", ...load]));
    return { binary, clients: options.clients, seconds: options.seconds, write, read };
  } finally {
    await onServer(databaseUrl, (client) => client.query(`drop database if exists ${quoted}`));
  }
}

export const pgbenchLine = (p: Pgbench) =>
  `pgbench -N ${p.write.tps.toFixed(0)} tx/s (latency average ${p.write.latencyMs.toFixed(1)} ms), -S ${p.read.tps.toFixed(0)} tx/s (${p.read.latencyMs.toFixed(2)} ms), ${p.clients} clients, ${p.seconds} s`;

/** pgbench's figures, and each write scenario of the run against `-N`. */
export function markdownPgbench(p: Pgbench, results: ScenarioResult[]): string {
  const writes = results.filter(
    (r) => r.target === "portal" && !r.crowd && /progress|heartbeat|exam/.test(r.id),
  );
  return [
    `PostgreSQL's own ceiling in this run (same server, a scratch database, ${p.clients} clients, ${p.seconds} s): ${pgbenchLine(p)}.`,
    "",
    "| write scenario | req/s | share of -N's tx/s | p95 ms | p95 / -N's average latency |",
    "|---|---:|---:|---:|---:|",
    ...writes.map(
      (r) =>
        `| ${r.title} | ${r.rps.toFixed(0)} | ${((r.rps / p.write.tps) * 100).toFixed(0)}% | ${r.p95.toFixed(1)} | ${(r.p95 / p.write.latencyMs).toFixed(1)}× |`,
    ),
  ].join("\n");
}
