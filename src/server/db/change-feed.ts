import { randomBytes } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import pg from "pg";
import type { Executor } from "./client";

/** The channel migration 0010's triggers announce changes on: '<table>:<key>' or '<table>:*'. */
const CHANGES_CHANNEL = "credo_changes";

/** The listening connection's application_name, so operators (and tests) can find it. */
export const CHANGE_FEED_APPLICATION = "credo-change-feed";

/**
 * A change of one row (by its key), or of every row of the table (key '*', after a TRUNCATE),
 * or of everything (table '*': notifications may have been missed).
 */
type ChangeListener = (table: string, key: string) => void;

/**
 * Tells in-memory caches (db/read-cache.ts) that rows they may hold have changed, in this
 * process or in any other instance on the same database. PostgreSQL delivers the
 * triggers' notifications at commit; a change this process makes is also announced by its
 * service right after commit, so its own next request never sees the old value.
 */
export interface ChangeFeed {
  subscribe(listener: ChangeListener): () => void;
  /** Called by a service after its transaction committed. */
  announce(table: string, key: string): void;
  /**
   * False while notifications may be missed (the listening connection is down): caches must
   * then read through, and they are emptied when it comes back.
   */
  readonly live: boolean;
  /**
   * Resolves once every notification committed before the call has reached the listeners:
   * a barrier for tests (and tools) that write behind the app's back and then read through
   * it. PostgreSQL delivers notifications in commit order, so the feed sends its own marker
   * and waits for it to come back.
   */
  sync(): Promise<void>;
  close(): Promise<void>;
}

function createDispatcher() {
  const listeners = new Set<ChangeListener>();
  return {
    listeners,
    subscribe(listener: ChangeListener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    dispatch(payload: string) {
      const at = payload.indexOf(":");
      if (at < 1) return;
      const table = payload.slice(0, at);
      const key = payload.slice(at + 1);
      for (const listener of listeners) listener(table, key);
    },
  };
}

/**
 * Announces a change of cached rows from inside the transaction that makes it, as the
 * triggers do: every instance, this one included, hears it when the transaction commits,
 * and nothing if it rolls back.
 */
export async function announceAtCommit(tx: Executor, table: string, key: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${CHANGES_CHANNEL}, ${`${table}:${key}`})`);
}

/** Embedded PGlite: one connection, and notifications arrive before `commit` resolves. */
export async function pgliteChangeFeed(client: PGlite): Promise<ChangeFeed> {
  const dispatcher = createDispatcher();
  const unlisten = await client.listen(CHANGES_CHANNEL, (payload) => dispatcher.dispatch(payload));
  return {
    subscribe: dispatcher.subscribe,
    announce: (table, key) => dispatcher.dispatch(`${table}:${key}`),
    live: true,
    // PGlite delivers at commit, before the writer's promise resolves.
    sync: async () => {},
    close: async () => {
      dispatcher.listeners.clear();
      await unlisten().catch(() => {});
    },
  };
}

/**
 * PostgreSQL: one dedicated connection LISTENs. When it drops, every cache is emptied and
 * bypassed until it is back (with backoff), because notifications sent meanwhile are lost.
 */
export async function postgresChangeFeed(
  connectionString: string,
  log: (message: string, err?: unknown) => void = () => {},
): Promise<ChangeFeed> {
  const dispatcher = createDispatcher();
  let client: pg.Client | undefined;
  let live = false;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let delay = 500;

  // Table '*': every table (caches empty themselves whole).
  const dropAll = () => dispatcher.dispatch("*:*");

  // sync(): markers this feed sent, waiting to come back on the listening connection. The
  // random part keeps them apart from other instances' markers on the same database.
  const SYNC_PREFIX = "sync:";
  const feedId = randomBytes(6).toString("hex");
  const waiting = new Map<string, () => void>();
  let syncCount = 0;
  let sending = Promise.resolve();
  const releaseAll = () => {
    for (const release of waiting.values()) release();
    waiting.clear();
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, delay);
    retryTimer.unref();
    delay = Math.min(delay * 2, 10_000);
  };

  const lost = (err?: unknown) => {
    if (!live && !client) return;
    live = false;
    client = undefined;
    dropAll();
    // Caches are bypassed now: nothing stale can be read, so nobody needs to wait.
    releaseAll();
    if (!closed) {
      log("change feed connection lost; caches bypassed until it is back", err);
      scheduleReconnect();
    }
  };

  async function connect() {
    const next = new pg.Client({
      connectionString,
      connectionTimeoutMillis: 5_000,
      application_name: CHANGE_FEED_APPLICATION,
    });
    next.on("notification", (message) => {
      if (message.channel !== CHANGES_CHANNEL || !message.payload) return;
      if (message.payload.startsWith(SYNC_PREFIX)) {
        const release = waiting.get(message.payload);
        waiting.delete(message.payload);
        release?.();
        return;
      }
      dispatcher.dispatch(message.payload);
    });
    next.on("error", (err) => {
      if (client === next) lost(err);
    });
    next.on("end", () => {
      if (client === next) lost();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (err) {
      await next.end().catch(() => {});
      log("change feed could not listen; caches bypassed", err);
      scheduleReconnect();
      return;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    delay = 500;
    // Anything cached while nobody listened may be stale.
    dropAll();
    live = true;
  }

  await connect();
  return {
    subscribe: dispatcher.subscribe,
    announce: (table, key) => dispatcher.dispatch(`${table}:${key}`),
    get live() {
      return live;
    },
    sync: () => {
      const current = client;
      if (!live || !current) return Promise.resolve();
      const marker = `${SYNC_PREFIX}${feedId}.${++syncCount}`;
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(marker);
          resolve();
        }, 5_000);
        timer.unref();
        waiting.set(marker, () => {
          clearTimeout(timer);
          resolve();
        });
        // One query at a time on this connection (pg warns of overlapping queries).
        sending = sending
          .then(() => current.query("select pg_notify($1, $2)", [CHANGES_CHANNEL, marker]))
          .then(
            () => {},
            () => {
              waiting.get(marker)?.();
              waiting.delete(marker);
            },
          );
      });
    },
    close: async () => {
      closed = true;
      live = false;
      releaseAll();
      if (retryTimer) clearTimeout(retryTimer);
      dispatcher.listeners.clear();
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
