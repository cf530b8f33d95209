import type { FastifyRateLimitStore } from "@fastify/rate-limit";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client";

type Callback = (err: Error | null, result?: { current: number; ttl: number }) => void;

/** The plugin passes child() the route's merged limit options, with the route as routeInfo. */
type ChildOptions = Parameters<FastifyRateLimitStore["child"]>[0];
type RouteInfo = { method?: string | string[]; url?: string };

/** Requests counted against one key since the last write, each waiting for its count. */
interface Waiting {
  windowMs: number;
  callbacks: Callback[];
}

/**
 * Counts requests in PostgreSQL, so every instance counts the same window (a per-process
 * counter would let an attacker spread requests across instances). The table is unlogged:
 * a crash only starts the windows again.
 *
 * Limited routes include the busiest ones (a heartbeat every few seconds from every
 * learner watching), so counts that arrive while a write is under way wait for it and then
 * go together in one upsert, whatever their number; a request alone is written at once.
 * Each caller is answered its own place in the window: the requests of one key in one
 * write count one after the other. Expired rows are swept now and then.
 */
function createCounter(db: Database) {
  const waiting = new Map<string, Waiting>();
  let writing = false;

  async function write(batch: [string, Waiting][]) {
    // One order for every instance: two overlapping writes cannot deadlock.
    batch.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const values = batch.map(([key, w]) => ({ key, n: w.callbacks.length, ms: w.windowMs }));
    const result = await db.execute(sql`insert into rate_limits (key, count, reset_at)
      select v.key, v.n, now() + v.ms * interval '1 millisecond'
      from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(key text, n int, ms int)
      on conflict (key) do update set
        count = case when rate_limits.reset_at <= now() then excluded.count
          else rate_limits.count + excluded.count end,
        reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at
          else rate_limits.reset_at end
      returning key, count,
        greatest(0, extract(epoch from (reset_at - now())) * 1000)::int as ttl`);
    const rows = (result as unknown as { rows: { key: string; count: number; ttl: number }[] })
      .rows;
    const counted = new Map(rows.map((r) => [r.key, r]));
    for (const [key, w] of batch) {
      const row = counted.get(key)!;
      const first = Number(row.count) - w.callbacks.length;
      w.callbacks.forEach((callback, i) => {
        callback(null, { current: first + i + 1, ttl: Number(row.ttl) });
      });
    }
  }

  async function drain() {
    writing = true;
    try {
      while (waiting.size) {
        const batch = [...waiting];
        waiting.clear();
        try {
          await write(batch);
        } catch (err) {
          for (const [, w] of batch) for (const callback of w.callbacks) callback(err as Error);
        }
        // Now and then, without holding up the counts waiting for the next write.
        if (Math.random() < 0.01) sweepExpiredCounts(db).catch(() => {});
      }
    } finally {
      writing = false;
    }
  }

  return (key: string, windowMs: number, callback: Callback) => {
    const w = waiting.get(key) ?? { windowMs, callbacks: [] };
    w.callbacks.push(callback);
    waiting.set(key, w);
    if (!writing) void drain();
  };
}

/**
 * Deletes the counters whose window has passed. A counter that a write holds is left for
 * the next sweep: waiting for it while holding others, in another order than the writes
 * take them, would deadlock with the write, whose requests would then fail.
 */
export async function sweepExpiredCounts(db: Database): Promise<void> {
  await db.execute(sql`delete from rate_limits where key in (
    select key from rate_limits where reset_at < now() order by key for update skip locked)`);
}

/** A @fastify/rate-limit store over the shared counters (one counter per portal instance). */
export function pgRateLimitStore(db: Database) {
  const count = createCounter(db);
  return class PgRateLimitStore {
    constructor(
      _options?: unknown,
      private readonly prefix = "",
    ) {}

    /** The plugin passes the route's window as a third argument its types do not declare. */
    incr(key: string, callback: Callback, timeWindow = 60_000) {
      count(`${this.prefix}${key}`, timeWindow, callback);
    }

    child(routeOptions: ChildOptions) {
      const { method, url } = (routeOptions as { routeInfo?: RouteInfo }).routeInfo ?? {};
      return new PgRateLimitStore(undefined, `${this.prefix}${String(method ?? "")}${url ?? ""}:`);
    }
  };
}
