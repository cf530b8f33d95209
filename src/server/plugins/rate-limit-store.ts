import type { FastifyRateLimitStore } from "@fastify/rate-limit";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { rateLimits } from "./rate-limits.table";

type Callback = (err: Error | null, result?: { current: number; ttl: number }) => void;

/** The plugin passes child() the route's merged limit options, with the route as routeInfo. */
type ChildOptions = Parameters<FastifyRateLimitStore["child"]>[0];
type RouteInfo = { method?: string | string[]; url?: string };

/**
 * A @fastify/rate-limit store in PostgreSQL, so every instance counts the same window
 * (a per-process counter would let an attacker spread requests across instances).
 * One atomic upsert per limited request; expired rows are swept now and then.
 */
export function pgRateLimitStore(db: Database) {
  return class PgRateLimitStore {
    constructor(
      _options?: unknown,
      private readonly prefix = "",
    ) {}

    /** The plugin passes the route's window as a third argument its types do not declare. */
    incr(key: string, callback: Callback, timeWindow = 60_000) {
      const fullKey = `${this.prefix}${key}`;
      const window = sql`(${timeWindow}::int * interval '1 millisecond')`;
      db.insert(rateLimits)
        .values({ key: fullKey, count: 1, resetAt: sql`now() + ${window}` })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`case when ${rateLimits.resetAt} <= now() then 1 else ${rateLimits.count} + 1 end`,
            resetAt: sql`case when ${rateLimits.resetAt} <= now() then now() + ${window} else ${rateLimits.resetAt} end`,
          },
        })
        .returning({
          current: rateLimits.count,
          ttl: sql<number>`greatest(0, extract(epoch from (${rateLimits.resetAt} - now())) * 1000)::int`,
        })
        .then(([row]) => {
          callback(null, { current: row!.current, ttl: Number(row!.ttl) });
          if (Math.random() < 0.01) {
            db.delete(rateLimits)
              .where(sql`${rateLimits.resetAt} < now()`)
              .catch(() => {});
          }
        })
        .catch((err: Error) => callback(err));
    }

    child(routeOptions: ChildOptions) {
      const { method, url } = (routeOptions as { routeInfo?: RouteInfo }).routeInfo ?? {};
      return new PgRateLimitStore(undefined, `${this.prefix}${String(method ?? "")}${url ?? ""}:`);
    }
  };
}
