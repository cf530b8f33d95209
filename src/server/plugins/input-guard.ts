import type { FastifyInstance } from "fastify";
import { fieldLabel } from "../../contract";
import { invalidField } from "./errors";

/**
 * Text the portal cannot store is refused at the door, after the role checks and the schema
 * validation, wherever it hides in the parameters, the query string or the JSON body (values
 * and keys), so no route has to remember it:
 * - U+0000: PostgreSQL text cannot hold it, so a NUL in an id, a search or a title would
 *   fail in SQL (a 500);
 * - text that is not well-formed Unicode (a lone surrogate such as "\ud800", which JSON can
 *   carry): PostgreSQL's JSON refuses it, and no person types it.
 */
export function registerInputGuard(app: FastifyInstance) {
  app.addHook("preHandler", async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const found = unstorableText(part, "");
      if (found) {
        const field = fieldLabel(found.path.split(".")) ?? "The text";
        throw invalidField("input.unicode", found.path || "request", `${field} ${found.problem}`);
      }
    }
  });
}

const NUL = "contains a character that cannot be stored (NUL).";
const MALFORMED = "contains a broken character: retype the text.";
/** A high surrogate without its low half, or a low one without its high half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function problemOf(text: string): string | null {
  if (text.includes("\u0000")) return NUL;
  return LONE_SURROGATE.test(text) ? MALFORMED : null;
}

/** The dotted path of the first string (or key) the portal cannot store, and why; or null. */
function unstorableText(
  value: unknown,
  path: string,
  depth = 0,
): { path: string; problem: string } | null {
  if (typeof value === "string") {
    const problem = problemOf(value);
    return problem ? { path, problem } : null;
  }
  if (value === null || typeof value !== "object" || depth > 32) return null;
  for (const [key, inner] of Object.entries(value)) {
    const inside = path ? `${path}.${key}` : key;
    const problem = problemOf(key);
    if (problem) return { path: path || "request", problem };
    const found = unstorableText(inner, inside, depth + 1);
    if (found) return found;
  }
  return null;
}
