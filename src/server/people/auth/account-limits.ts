import type { FastifyInstance, FastifyRequest } from "fastify";
import { tooManyLoginAttempts } from "./auth.errors";

/**
 * The set-up and reset forms are limited twice (the look-ups per address only). Per address,
 * high enough for a whole class behind one public address (a training room, a hospital) to
 * set up their passwords together; per email, low enough that nobody can hammer one account
 * or mailbox, counting only what a stranger cannot spend for the owner (auth.routes.ts).
 * @fastify/rate-limit runs one limit per request, so the second one is checked here,
 * against the same shared store, once the body has been validated.
 */
export const ROOM_LIMIT = { max: 300, timeWindow: "15 minutes" };

/** Wrong admin keys from every address together (a guessing campaign). */
export const ADMIN_KEY_GUESS_LIMIT = { max: 30, timeWindow: "15 minutes" };

function sharedLimit(
  app: FastifyInstance,
  options: { max: number; timeWindow: string; key: (request: FastifyRequest) => string },
  onExceeded?: (request: FastifyRequest) => void,
) {
  const limit = app.createRateLimit({
    max: options.max,
    timeWindow: options.timeWindow,
    keyGenerator: options.key,
  });
  return async (request: FastifyRequest) => {
    const result = await limit(request);
    if (!result.isAllowed && result.isExceeded) {
      onExceeded?.(request);
      throw tooManyLoginAttempts(result.ttlInSeconds);
    }
  };
}

export function perEmailLimit(
  app: FastifyInstance,
  name: string,
  options: { max: number; timeWindow: string },
) {
  return sharedLimit(app, {
    ...options,
    key: (request) =>
      `${name}:${String((request.body as { email?: unknown }).email ?? "")
        .trim()
        .toLowerCase()}`,
  });
}

/**
 * The admin key guards the first administrator. Spreading guesses over many addresses gets
 * round the per-address limit, so wrong keys from all addresses together are counted too:
 * past the limit a wrong key is answered 429, and an alert goes to the log for whoever runs
 * the portal. The right key is never counted, so a flood of guesses locks nobody out.
 */
export function adminKeyGuessLimit(app: FastifyInstance) {
  return sharedLimit(app, { ...ADMIN_KEY_GUESS_LIMIT, key: () => "admin-key-guesses" }, (request) =>
    request.log.error(
      { event: "auth.admin.setup.alert", ip: request.ip },
      "security alert: wrong admin keys from many addresses; further wrong keys are refused",
    ),
  );
}
