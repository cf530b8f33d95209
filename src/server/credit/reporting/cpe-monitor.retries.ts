import type { FastifyBaseLogger } from "fastify";

/** How often completions waiting for CPE Monitor are looked at; each has its own next attempt. */
const RETRY_SWEEP_MS = 60_000;

/**
 * Sends again, on an unref'd timer, the completions CPE Monitor's service could not take
 * when they were sent: each when its own wait (growing with each attempt) is over. One sweep
 * at a time; a failed sweep is logged and the next one tries again.
 */
export function createCpeMonitorRetries(deps: {
  reporting: { retryCpeMonitor(): Promise<number> };
  log: FastifyBaseLogger;
  intervalMs?: number;
}) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= deps.reporting
      .retryCpeMonitor()
      .then((sent) => {
        if (sent) deps.log.info({ sent }, "completions sent to CPE Monitor again");
      })
      .catch((err: unknown) => deps.log.error({ err }, "sending completions to CPE Monitor failed"))
      .finally(() => {
        running = undefined;
      });
  };
  return {
    /** One sweep now: what the timer runs; tests call it after moving their clock. */
    async sweep() {
      tick();
      await running;
    },
    start() {
      timer ??= setInterval(tick, deps.intervalMs ?? RETRY_SWEEP_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}

declare module "fastify" {
  interface FastifyInstance {
    cpeMonitorRetries: ReturnType<typeof createCpeMonitorRetries>;
  }
}
