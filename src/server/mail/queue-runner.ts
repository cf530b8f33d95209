import type { ChangeFeed } from "../db/change-feed";

/**
 * Runs the sender of a queue of mails in this process: woken when a row of its table is
 * announced at commit (on every instance, through the change feed), one run at a time; a
 * wake-up during a run asks for one more run.
 */
export function createQueueRunner(options: {
  /** The queue's table, as its commits announce it. */
  table: string;
  /**
   * Sends what is due; its failures are logged and left to the next run. It asks `stopping`
   * between batches and, once it is true, returns after the batch in hand: what is left
   * stays queued for the next start or another instance.
   */
  run: (stopping: () => boolean) => Promise<unknown>;
  changes?: ChangeFeed;
  log: { warn(obj: object, msg: string): void };
}) {
  let running: Promise<void> | undefined;
  let again = false;
  // Set by stop: a portal shutting down sends no further batch, so it stops in about a
  // batch's time however many mails a busy hour left queued.
  let stopping = false;
  const isStopping = () => stopping;
  function kick() {
    if (stopping) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await options
          .run(isStopping)
          .catch((err) => options.log.warn({ err }, `${options.table}: sending failed`));
      } while (again && !stopping);
    })().finally(() => {
      running = undefined;
    });
  }

  let unsubscribe: (() => void) | undefined;
  return {
    kick,
    /** Starts listening for queued mails and sends what is left from before. */
    start() {
      stopping = false;
      unsubscribe = options.changes?.subscribe((table) => {
        // Table '*': notifications may have been missed while the feed was down.
        if (table === options.table || table === "*") kick();
      });
      kick();
    },
    /** Resolves when no send is running in this process: for tests and for shutdown. */
    async idle() {
      while (running) await running;
    },
    /** Resolves once the batch in hand is sent; the rest stays queued. */
    async stop() {
      stopping = true;
      unsubscribe?.();
      unsubscribe = undefined;
      while (running) await running;
    },
  };
}
