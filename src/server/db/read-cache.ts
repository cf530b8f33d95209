import { LRUCache } from "lru-cache";
import type { ChangeFeed } from "./change-feed";

export interface ReadCacheOptions<V> {
  feed: ChangeFeed;
  /** The tables whose changes can make an entry stale. */
  tables: readonly string[];
  /**
   * The rows an entry was built from, as '<table>:<key>': a change of any drops the entry.
   * A bare '<table>' stands for every row of it, for an entry that depends on which rows
   * exist (a list): any change of that table drops the entry.
   */
  tagsOf(value: V): string[];
  max: number;
  /**
   * For entries of very different sizes (answers kept as text): the most bytes held, by
   * `bytesOf` of each entry; the least recently used go first.
   */
  maxBytes?: { total: number; of(value: V): number };
  /** A safety net only: changes drop entries at once (change-feed.ts). */
  ttlMs: number;
}

/** Changes kept for the loads under way, past which those no load can miss are dropped. */
const CHANGES_KEPT = 1_000;

/**
 * A bounded in-memory cache of rows that are read on almost every request and rarely change
 * (sessions, the course catalogue), kept exact by the change feed.
 *
 * A load that was in flight while a change of one of its value's rows arrived is not stored:
 * it may have read the row before that change committed. Changes of other rows do not
 * matter, so a busy table (a learner completing a module every few milliseconds) does not
 * keep every other learner's entry from being kept. While the feed is not live (its
 * connection is down) every read goes to the database. Misses are not cached, so an unknown
 * key is always looked up.
 */
export function createReadCache<V extends object>(options: ReadCacheOptions<V>) {
  const tagsByKey = new Map<string, string[]>();
  const keysByTag = new Map<string, Set<string>>();
  let epoch = 0;
  /** The epoch of the last change of everything (a TRUNCATE, a lost feed). */
  let clearedAt = 0;
  /**
   * The epoch each tag last changed at, as '<table>:<key>' and as '<table>' (for entries of
   * a whole table), recorded only while loads are under way.
   */
  const changedAt = new Map<string, number>();
  let pruneAt = CHANGES_KEPT;
  /** Loads under way, by the epoch they started at. */
  const underWay = new Map<number, number>();

  const begin = () => {
    underWay.set(epoch, (underWay.get(epoch) ?? 0) + 1);
    return epoch;
  };
  const end = (started: number) => {
    const left = underWay.get(started)! - 1;
    if (left) {
      underWay.set(started, left);
    } else {
      underWay.delete(started);
    }
    if (!underWay.size) {
      changedAt.clear();
    } else if (changedAt.size >= pruneAt) {
      // No load under way started before the oldest: older changes concern none of them.
      const oldest = Math.min(...underWay.keys());
      for (const [tag, at] of changedAt) if (at <= oldest) changedAt.delete(tag);
      pruneAt = Math.max(CHANGES_KEPT, changedAt.size * 2);
    }
  };
  /** Whether none of `tags` changed since `started`, so a value read since is current. */
  const unchangedSince = (tags: string[], started: number) =>
    clearedAt <= started && tags.every((tag) => (changedAt.get(tag) ?? 0) <= started);

  const untag = (key: string) => {
    for (const tag of tagsByKey.get(key) ?? []) {
      const keys = keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) keysByTag.delete(tag);
    }
    tagsByKey.delete(key);
  };

  const lru = new LRUCache<string, V>({
    max: options.max,
    ...(options.maxBytes
      ? {
          maxSize: options.maxBytes.total,
          sizeCalculation: (value: V) => Math.max(1, options.maxBytes!.of(value)),
        }
      : {}),
    ttl: options.ttlMs,
    dispose: (_value, key) => untag(key),
  });

  const clear = () => {
    epoch += 1;
    clearedAt = epoch;
    lru.clear();
    tagsByKey.clear();
    keysByTag.clear();
  };

  const unsubscribe = options.feed.subscribe((table, key) => {
    if (table === "*") return clear();
    if (!options.tables.includes(table)) return;
    if (key === "*") return clear();
    epoch += 1;
    if (underWay.size) {
      changedAt.set(`${table}:${key}`, epoch);
      changedAt.set(table, epoch);
    }
    const stale = [...(keysByTag.get(`${table}:${key}`) ?? []), ...(keysByTag.get(table) ?? [])];
    for (const cached of stale) lru.delete(cached);
  });

  /** Stores a value read since `started`, unless one of its rows changed meanwhile. */
  const store = (key: string, value: V, started: number) => {
    if (!options.feed.live) return;
    const tags = options.tagsOf(value);
    if (!unchangedSince(tags, started)) return;
    lru.delete(key);
    tagsByKey.set(key, tags);
    for (const tag of tags) {
      const keys = keysByTag.get(tag);
      if (keys) keys.add(key);
      else keysByTag.set(tag, new Set([key]));
    }
    lru.set(key, value);
  };

  /**
   * Loads under way, by key: a miss while the same key is being read since the last change
   * waits for that read instead of starting another (a crowd arriving at a cold entry).
   */
  const loading = new Map<string, { epoch: number; value: Promise<V | undefined> }>();

  return {
    async get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
      const hit = lru.get(key);
      if (hit !== undefined) return hit;
      if (!options.feed.live) return load();
      const shared = loading.get(key);
      if (shared?.epoch === epoch) return shared.value;
      const started = begin();
      const pending = load();
      loading.set(key, { epoch: started, value: pending });
      try {
        const value = await pending;
        if (value !== undefined) store(key, value, started);
        return value;
      } finally {
        end(started);
        if (loading.get(key)?.value === pending) loading.delete(key);
      }
    },

    /** Like get for several keys, loading all the misses with one call. */
    async getMany(
      keys: readonly string[],
      loadMany: (missing: string[]) => Promise<Map<string, V>>,
    ): Promise<Map<string, V>> {
      const found = new Map<string, V>();
      const missing: string[] = [];
      for (const key of new Set(keys)) {
        const hit = lru.get(key);
        if (hit !== undefined) found.set(key, hit);
        else missing.push(key);
      }
      if (!missing.length) return found;
      const started = begin();
      try {
        const loaded = await loadMany(missing);
        for (const [key, value] of loaded) {
          found.set(key, value);
          store(key, value, started);
        }
        return found;
      } finally {
        end(started);
      }
    },

    /** Entries held now (tests). */
    get size() {
      return lru.size;
    },
    close: unsubscribe,
  };
}
