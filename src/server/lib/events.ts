import type { Database, Executor } from "../db/client";

/**
 * What a feature tells the others has happened, by event type. A publisher names only the
 * event; the features that must follow subscribe, so the publisher never imports them. The
 * feature that publishes an event declares it beside its publishing code, by adding to this
 * interface (`declare module "../../lib/events"`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: the contexts add their events to it
export interface EventMap {}

export type EventType = keyof EventMap;

/** A subscriber's two parts: in the publisher's transaction, and after it committed. */
export interface Subscriber<K extends EventType> {
  /** Runs inside the publishing transaction: what must be atomic with the change. */
  inTransaction?(tx: Executor, event: EventMap[K]): Promise<void>;
  /**
   * Runs after the transaction committed, once per distinct event, before the publisher's
   * request is answered: the follow-up work that takes transactions of its own.
   */
  afterCommit?(event: EventMap[K]): Promise<void>;
}

/** Publishes an event inside the transaction it was given with. */
export type Publish = <K extends EventType>(type: K, event: EventMap[K]) => Promise<void>;

/**
 * Typed in-process events. A publisher runs its change through `transaction`: every event it
 * publishes reaches each subscriber's `inTransaction` at once, in the same transaction, and
 * each subscriber's `afterCommit` once the transaction committed (never if it rolled back).
 */
export function createEvents() {
  const subscribers = new Map<EventType, Subscriber<EventType>[]>();

  return {
    subscribe<K extends EventType>(type: K, subscriber: Subscriber<K>): void {
      const list = subscribers.get(type) ?? [];
      list.push(subscriber as Subscriber<EventType>);
      subscribers.set(type, list);
    },

    /**
     * Publishes an event inside a transaction the publisher runs itself: each subscriber's
     * `inTransaction` part only. For events whose whole outcome belongs in that transaction.
     */
    async publishIn<K extends EventType>(tx: Executor, type: K, event: EventMap[K]): Promise<void> {
      for (const s of subscribers.get(type) ?? []) await s.inTransaction?.(tx, event);
    },

    /** Runs `work` in one transaction of `db`, with a `publish` for the events it causes. */
    async transaction<T>(
      db: Database,
      work: (tx: Executor, publish: Publish) => Promise<T>,
    ): Promise<T> {
      const published = new Map<string, [EventType, EventMap[EventType]]>();
      const result = await db.transaction((tx) =>
        work(tx, async (type, event) => {
          published.set(`${type}\u0000${JSON.stringify(event)}`, [type, event]);
          for (const s of subscribers.get(type) ?? []) await s.inTransaction?.(tx, event);
        }),
      );
      for (const [type, event] of published.values()) {
        for (const s of subscribers.get(type) ?? []) await s.afterCommit?.(event);
      }
      return result;
    },
  };
}

export type Events = ReturnType<typeof createEvents>;
