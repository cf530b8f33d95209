import type { FastifyInstance } from "fastify";
import { invalidField } from "./errors";

/**
 * PostgreSQL text cannot hold U+0000: a NUL in an id, a search or a title would fail in
 * SQL (a 500). It is refused at the door instead, after the role checks and the schema
 * validation, wherever it hides in the parameters, the query string or the JSON body.
 */
export function registerInputGuard(app: FastifyInstance) {
  app.addHook("preHandler", async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const field = fieldWithNul(part, "");
      if (field !== null) {
        throw invalidField("input.unicode", field || "request", "must not contain NUL characters.");
      }
    }
  });
}

/** The dotted path of the first string (or key) holding a NUL, or null. */
function fieldWithNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (value === null || typeof value !== "object" || depth > 32) return null;
  for (const [key, inner] of Object.entries(value)) {
    const inside = path ? `${path}.${key}` : key;
    if (key.includes("\u0000")) return path || "request";
    const found = fieldWithNul(inner, inside, depth + 1);
    if (found !== null) return found;
  }
  return null;
}
