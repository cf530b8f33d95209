import type { FastifyInstance, FastifyRequest } from "fastify";
import { tooManyLoginAttempts } from "./auth.errors";

/**
 * The set-up, reset and look-up forms are limited twice. Per address, high enough for a
 * whole class behind one public address (a training room, a hospital) to set up their
 * passwords together; per email, low enough that nobody can hammer one account or mailbox.
 * @fastify/rate-limit runs one limit per request, so the per-email one is checked here,
 * against the same shared store, once the body has been validated.
 */
export const ROOM_LIMIT = { max: 300, timeWindow: "15 minutes" };

export function perEmailLimit(
  app: FastifyInstance,
  name: string,
  options: { max: number; timeWindow: string },
) {
  const limit = app.createRateLimit({
    ...options,
    keyGenerator: (request) =>
      `${name}:${String((request.body as { email?: unknown }).email ?? "")
        .trim()
        .toLowerCase()}`,
  });
  return async (request: FastifyRequest) => {
    const result = await limit(request);
    if (!result.isAllowed && result.isExceeded) throw tooManyLoginAttempts(result.ttlInSeconds);
  };
}
