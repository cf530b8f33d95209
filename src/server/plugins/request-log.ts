import type { FastifyInstance } from "fastify";
import { redactUrl } from "./security-events";

/**
 * One short line per answered request instead of Fastify's two JSON objects. Operators read
 * them in production; a developer's console and the demo show them only at LOG_LEVEL=debug,
 * so a watched video's heartbeats do not bury what matters.
 */
export function registerRequestLog(app: FastifyInstance, options: { production: boolean }) {
  const level = options.production ? "info" : "debug";
  // Callback style, not async: the onResponse hooks after this one (the release of a
  // download slot) then run in the same turn, before the client can send its next request.
  app.addHook("onResponse", (request, reply, done) => {
    request.log[level](
      { status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      `${request.method} ${redactUrl(request.url)}`,
    );
    done();
  });
}
