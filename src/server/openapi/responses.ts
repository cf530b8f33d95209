import type { Readable } from "node:stream";
import { z } from "zod";
import { ERROR_CODES, type ErrorCode, errorSchema } from "../../contract";

type StatusOf<C extends ErrorCode> = (typeof ERROR_CODES)[C];
type ErrorAnswer = typeof errorSchema;

/** What one error answer of a route stands for: its status and the codes it is sent with. */
interface ErrorAnswerCodes {
  status: number;
  codes: readonly ErrorCode[];
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "Not signed in",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict",
  413: "Too large",
  414: "Address too long",
  415: "Unsupported media type",
  416: "Range not satisfiable",
  421: "Wrong host",
  429: "Too many requests",
  500: "Server error",
  503: "Unavailable",
};

/** The codes added to every route of a kind (document.ts), explained once here. */
const CODE_NOTES: Partial<Record<ErrorCode, string>> = {
  "validation.invalid_body": "the body does not match the schema; `path` names the field",
  "validation.invalid_query": "the query string does not match the schema; `path` names it",
  "validation.invalid_params": "an address parameter does not match the schema",
  "input.unicode": "a parameter, query or body text holds a NUL or is not well-formed Unicode",
  "request.invalid_json": "the body is not valid JSON",
  "request.too_large": "the body is larger than this route accepts",
  "request.json_required": "a state-changing request's body must be application/json",
  "request.cross_site": "the Origin header names another site",
  "request.wrong_host": "the Host header is not the portal's",
  "request.invalid": "a request the framework refused, such as a range past the end",
  "request.throttled": "this route's per-address limit is spent; see Retry-After",
  "downloads.throttled": "the user's budget of expensive downloads is spent; see Retry-After",
  "auth.not_signed_in": "no valid session cookie",
  "auth.forbidden": "the signed-in user's role may not use this route",
  "system.error": "an unexpected failure, whose details only the log holds",
  "system.unavailable": "the database or the server is overloaded or down; see Retry-After",
};

/**
 * What refuses any learner's step before its own rules (the enrollments' unit of work): no
 * enrollment, the course taken offline, the activity or the enrollment expired.
 */
export const STEP_REFUSALS = [
  "enrollments.not_enrolled",
  "courses.unpublished",
  "credit.expired",
  "credit.enrollment_expired",
] as const satisfies readonly ErrorCode[];

/** Every error answer made here, with its codes: read by the route hook and the document. */
const answers = new WeakMap<z.ZodType, ErrorAnswerCodes>();
/** The document's copy of each answer, whose `code` lists only the codes sent with it. */
const narrowed = new WeakMap<z.ZodType, z.ZodType>();

function descriptionOf({ status, codes }: ErrorAnswerCodes): string {
  const list = codes.map((code) => {
    const note = CODE_NOTES[code];
    return note ? `\`${code}\`: ${note}` : `\`${code}\``;
  });
  return `${STATUS_TEXT[status] ?? "Error"}. ${list.join("; ")}.`;
}

/** One status's error answer, described with its codes (sorted, without repeats). */
export function errorAnswer(status: number, codes: Iterable<ErrorCode>): ErrorAnswer {
  const sorted = [...new Set(codes)].sort();
  for (const code of sorted) {
    // Fastify's other client errors keep their own status under this one code.
    if (code === "request.invalid" && status >= 400 && status < 500) continue;
    if (ERROR_CODES[code] !== status) {
      throw new Error(`${code} is sent with ${ERROR_CODES[code]}, not ${status}`);
    }
  }
  const answer = errorSchema.describe(descriptionOf({ status, codes: sorted }));
  answers.set(answer, { status, codes: sorted });
  return answer;
}

/**
 * A route's own error answers, for its `schema.response`: the codes grouped by the status
 * the contract's ERROR_CODES gives them, each status described with its codes.
 * `errorResponses(["exam.attempt_submitted", "exam.not_your_attempt"])` →
 * `{ 403: …, 409: … }`. The answers every route of a kind can give (validation, sessions,
 * cross-site checks, limits, 500/503) are added by the route hook in document.ts.
 */
export function errorResponses<const C extends readonly ErrorCode[]>(
  codes: C,
): { [S in StatusOf<C[number]>]: ErrorAnswer } {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [status, errorAnswer(status, list)]),
  ) as { [S in StatusOf<C[number]>]: ErrorAnswer };
}

/** The status and codes of an answer made by errorAnswer/errorResponses, else undefined. */
export const errorCodesOf = (schema: unknown): ErrorAnswerCodes | undefined =>
  schema instanceof z.ZodType ? answers.get(schema) : undefined;

/**
 * What the document shows for an error answer: `code` narrowed to the codes sent with it,
 * so a client can switch over them exhaustively. The route keeps the whole errorSchema for
 * serializing, so an answer the document missed still leaves as sent.
 */
export function documentedErrorAnswer(schema: z.ZodType): z.ZodType {
  const answer = answers.get(schema);
  if (!answer) return schema;
  let shown = narrowed.get(schema);
  if (!shown) {
    const [first, ...rest] = answer.codes;
    shown = errorSchema
      .extend({ code: first ? z.enum([first, ...rest]) : errorSchema.shape.code })
      .meta({
        description: descriptionOf(answer),
        // A limit or an outage says when to try again.
        ...(answer.status === 429 || answer.status === 503
          ? headersOf({
              "retry-after": "Seconds to wait before trying again, when the server knows",
            })
          : {}),
      });
    narrowed.set(schema, shown);
  }
  return shown;
}

/**
 * Bytes that are not JSON: a file, a document, a stream. Typed as what a handler sends
 * (Fastify sends these as they are, without the serializer); shown as binary.
 */
const binary = z
  .custom<string | Uint8Array | Readable>(() => true)
  .meta({ type: "string", format: "binary" });

/**
 * An answer that is a file in one of `mediaTypes` (PDF, CSV, WebVTT, an image, a video),
 * for `schema.response`, with the response headers worth knowing.
 */
export function fileAnswer(
  description: string,
  mediaTypes: readonly [string, ...string[]],
  headers: Record<string, string> = {},
) {
  const content = Object.fromEntries(mediaTypes.map((type) => [type, { schema: binary }]));
  return { description, ...headersOf(headers), content };
}

/** A JSON or a CSV answer of the same route, chosen by the query (`format`). */
export function jsonOrCsvAnswer<T extends z.ZodType>(description: string, json: T) {
  return {
    description,
    ...headersOf({ "content-disposition": "For the CSV: `attachment; filename=…`" }),
    content: { "application/json": { schema: json }, "text/csv": { schema: binary } },
  };
}

/** An answer without a body (a redirect, 304 Not Modified), with its headers. */
export function emptyAnswer(description: string, headers: Record<string, string> = {}) {
  return z.null().meta({ description, ...headersOf(headers) });
}

function headersOf(headers: Record<string, string>) {
  const entries = Object.entries(headers);
  if (entries.length === 0) return {};
  return {
    headers: Object.fromEntries(
      entries.map(([name, description]) => [name, { type: "string", description }]),
    ),
  };
}
