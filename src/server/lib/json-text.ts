import type { FastifyReply } from "fastify";

/**
 * Sends JSON that is already text (for instance built by PostgreSQL), or its UTF-8 bytes,
 * without serializing it again. Fastify passes such a payload through untouched when the
 * content type is JSON: the route's response schema still documents the answer (OpenAPI) but
 * its serializer does not run, so the caller guarantees the shape (by construction and by
 * tests).
 */
export function sendJsonText(reply: FastifyReply, json: string | Buffer): FastifyReply {
  return reply.type("application/json; charset=utf-8").send(json);
}
