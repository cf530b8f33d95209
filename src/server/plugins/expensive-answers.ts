import { setTimeout as pause } from "node:timers/promises";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import { MESSAGES } from "../../contract";
import { tooManyRequests } from "./errors";

declare module "fastify" {
  interface FastifyContextConfig {
    /** A PDF, a CSV export or a report: costly to make, so limited per user. */
    expensive?: boolean;
  }
}

/**
 * What one signed-in user may ask of the expensive answers: a couple at a time (a browser
 * downloading a certificate and a transcript together) and a generous number a minute. One
 * user keeping a hundred PDFs in flight would otherwise take the portal from everyone else.
 */
export const EXPENSIVE_ANSWERS = { inFlight: 2, perMinute: 60 };

/**
 * A user who keeps asking after their minute is spent is answered only after this pause.
 * A client that ignores Retry-After and keeps a hundred requests in flight would otherwise
 * have the portal's one thread answer refusals all day; paused, each of its connections costs
 * one refusal a second. A person who clicks again waits a second for the same message.
 */
export const SPENT_REFUSAL_PAUSE_MS = 1000;
/** Refusals paused at once in one instance; past it (a crowd of floods) they go at once. */
const MAX_PAUSED_REFUSALS = 10_000;

const holder = Symbol("expensive answer holder");
type Held = FastifyRequest & { [holder]?: string };

export function registerExpensiveAnswers(app: FastifyInstance) {
  // Per instance: in-flight work is this process's own load, whatever other instances do.
  const inFlight = new Map<string, number>();
  // Users whose minute is used up, until when: their further requests are refused here,
  // without asking the shared counter each time (a flood would otherwise turn into a flood
  // of database writes).
  const spent = new LRUCache<string, number>({ max: 10_000 });
  let paused = 0;
  const perMinute = app.createRateLimit({
    max: EXPENSIVE_ANSWERS.perMinute,
    timeWindow: "1 minute",
    keyGenerator: (request) => `expensive:${request.session?.user.id ?? request.ip}`,
  });
  const release = (request: Held) => {
    const key = request[holder];
    if (key === undefined) return;
    request[holder] = undefined;
    const left = (inFlight.get(key) ?? 1) - 1;
    if (left > 0) inFlight.set(key, left);
    else inFlight.delete(key);
  };

  // preHandler: after the route's role check, so the user is known and anonymous
  // requests spend nobody's budget.
  app.addHook("preHandler", async (request: Held) => {
    if (!request.routeOptions.config?.expensive) return;
    const key = request.session?.user.id ?? request.ip;
    const spentUntil = spent.get(key);
    if (spentUntil !== undefined && spentUntil > Date.now()) {
      if (paused < MAX_PAUSED_REFUSALS) {
        paused += 1;
        try {
          await pause(SPENT_REFUSAL_PAUSE_MS);
        } finally {
          paused -= 1;
        }
      }
      throw tooManyRequests(
        "downloads.throttled",
        MESSAGES.tooManyDownloads,
        (spentUntil - Date.now()) / 1000,
      );
    }
    if ((inFlight.get(key) ?? 0) >= EXPENSIVE_ANSWERS.inFlight) {
      throw tooManyRequests("downloads.throttled", MESSAGES.tooManyDownloads, 1);
    }
    // Taken before the first await, so a burst cannot all pass the check together.
    inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
    request[holder] = key;
    const limited = await perMinute(request);
    if (!limited.isAllowed && limited.isExceeded) {
      spent.set(key, Date.now() + limited.ttlInSeconds * 1000);
      release(request);
      throw tooManyRequests("downloads.throttled", MESSAGES.tooManyDownloads, limited.ttlInSeconds);
    }
  });
  app.addHook("onResponse", async (request: Held) => release(request));
  app.addHook("onRequestAbort", async (request: Held) => release(request));
}
