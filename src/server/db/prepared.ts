import type { Executor } from "./client";

/**
 * Hot queries as prepared statements, built once per connection (`npm run bench`): building
 * a Drizzle query costs more CPU than PostgreSQL spends answering a primary key lookup, and a
 * named statement is parsed once per connection instead of per call. A statement built on a
 * transaction is kept for the pooled connection the transaction holds, so the next
 * transaction on that connection runs it without building it again (a batch of completions
 * is several statements in a transaction); results are identical to the unprepared query.
 */
const cache = new WeakMap<object, Map<string, unknown>>();

/**
 * What a handle runs its statements on: the pool, or the pooled client a transaction holds
 * (PGlite gives each transaction its own object, so there a statement lives as long as its
 * transaction). Drizzle keeps it as its session's client.
 */
function connectionOf(db: Executor): object {
  const session = db._.session as unknown as { client?: object };
  return session.client ?? db;
}

export function preparedOnce<T>(db: Executor, name: string, build: (db: Executor) => T): T {
  const connection = connectionOf(db);
  let byName = cache.get(connection);
  if (!byName) {
    byName = new Map();
    cache.set(connection, byName);
  }
  let statement = byName.get(name) as T | undefined;
  if (!statement) {
    statement = build(db);
    byName.set(name, statement);
  }
  return statement;
}
