import type { FastifyInstance } from "fastify";
import { fieldLabel } from "../../contract";
import { appError, invalidField } from "./errors";

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
  // JSON nested past any request's need is refused before it is parsed: the routes that take
  // free JSON (a SCORM data model) would otherwise overflow the stack copying it (a 500).
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (nestedDeeperThan(body as string, MOST_JSON_DEPTH)) {
      done(jsonTooDeep(), undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
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

/**
 * The dotted path of the first string (or key) the portal cannot store, and why; or null.
 * It looks as deep as a body may nest (MOST_JSON_DEPTH), so none hides below.
 */
export function unstorableText(
  value: unknown,
  path: string,
  depth = 0,
): { path: string; problem: string } | null {
  if (typeof value === "string") {
    const problem = problemOf(value);
    return problem ? { path, problem } : null;
  }
  if (value === null || typeof value !== "object" || depth > MOST_JSON_DEPTH) return null;
  for (const [key, inner] of Object.entries(value)) {
    const inside = path ? `${path}.${key}` : key;
    const problem = problemOf(key);
    if (problem) return { path: path || "request", problem };
    const found = unstorableText(inner, inside, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Deeper than any request of the portal or any content's report nests its JSON. */
export const MOST_JSON_DEPTH = 64;

const jsonTooDeep = () =>
  appError(
    400,
    "request.invalid_json",
    `Request body is nested more than ${MOST_JSON_DEPTH} levels deep.`,
  );

/** Whether JSON text opens more than `most` arrays or objects inside each other (one pass). */
export function nestedDeeperThan(text: string, most: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      // A backslash escapes the character after it; a quote ends the string.
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > most) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}
