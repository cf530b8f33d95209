import type { Executor } from "./client";

/**
 * Hot queries as prepared statements, built once per database handle (`npm run
 * bench`): building a Drizzle query costs more CPU than PostgreSQL spends answering a primary
 * key lookup, and a named statement is parsed once per connection instead of per call. A
 * transaction gets its own statement (it lives only as long as the transaction), so callers
 * may pass either; results are identical to the unprepared query.
 */
const cache = new WeakMap<Executor, Map<string, unknown>>();

export function preparedOnce<T>(db: Executor, name: string, build: (db: Executor) => T): T {
  let byName = cache.get(db);
  if (!byName) {
    byName = new Map();
    cache.set(db, byName);
  }
  let statement = byName.get(name) as T | undefined;
  if (!statement) {
    statement = build(db);
    byName.set(name, statement);
  }
  return statement;
}
