import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import type { Database } from "../db/client";
import { openPostgres } from "../db/client";
import * as schema from "../db/schema";
import { createScratchDatabase } from "./test-database";

/** One node of `explain (format json)`, with the fields the plan checks read. */
export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Plan Rows"?: number;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Actual Total Time"?: number;
  Plans?: PlanNode[];
}

/** A plan's nodes, the root first. */
export const nodesOf = (node: PlanNode): PlanNode[] => [
  node,
  ...(node.Plans ?? []).flatMap(nodesOf),
];

export interface ExplainDatabase {
  pool: pg.Pool;
  /** Drizzle on `pool`, logging every statement it sends into `captured`. */
  db: Database;
  captured: { sql: string; params: unknown[] }[];
}

/**
 * For plan tests (EXPLAIN at volume): a throwaway database on the PostgreSQL server named by
 * TEST_DATABASE_URL, migrated exactly as the app migrates, filled by `fill`, vacuumed and
 * analyzed, and dropped after the file. Call it inside a `describe.skipIf(!serverUrl)`.
 */
export function useExplainDatabase(
  prefix: string,
  fill: (pool: pg.Pool) => Promise<unknown>,
): ExplainDatabase {
  const serverUrl = process.env.TEST_DATABASE_URL!;
  const handle = { captured: [] as ExplainDatabase["captured"] } as ExplainDatabase;
  let close: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const scratch = await createScratchDatabase(serverUrl, prefix);
    const migrated = await openPostgres(scratch.url, { poolSize: 2 });
    await migrated.close();
    handle.pool = new pg.Pool({ connectionString: scratch.url, max: 4 });
    handle.db = drizzle({
      client: handle.pool,
      schema,
      casing: "snake_case",
      logger: { logQuery: (sql, params) => handle.captured.push({ sql, params }) },
    }) as unknown as Database;
    close = async () => {
      await handle.pool.end();
      await scratch.drop();
    };
    await fill(handle.pool);
    await handle.pool.query("vacuum analyze");
  }, 600_000);

  afterAll(async () => {
    await close();
  });

  return handle;
}
