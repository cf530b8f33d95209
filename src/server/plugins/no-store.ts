import type { FastifyInstance } from "fastify";

/**
 * API answers carry personal data and session state: no browser, proxy or back/forward
 * cache may keep them (ASVS 14.3.2). A route that chose its own Cache-Control keeps it.
 */
export function registerNoStore(app: FastifyInstance) {
  app.addHook("onSend", async (request, reply, payload) => {
    if (request.url.startsWith("/api/") && !reply.hasHeader("cache-control")) {
      reply.header("cache-control", "no-store");
    }
    return payload;
  });
}
