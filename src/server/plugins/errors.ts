import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import {
  type ErrorBody,
  type ErrorCode,
  type ErrorCodeOf,
  installValidationMessages,
  MESSAGES,
} from "../../contract";

/** The statuses an AppError answers with. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 412 | 413 | 415 | 421 | 429 | 503;

/**
 * An error whose message is safe to show to the user, with its HTTP status and its code
 * (declared with that status in the contract's ERROR_CODES), and for a refused field its
 * dotted path.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: ErrorStatus,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly path?: string,
  ) {
    // A refusal is an answer, not a fault: its stack is never logged or sent, and capturing
    // one was a twelfth of the portal's thread while one learner flooded a limited route.
    const stackFrames = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackFrames;
    this.name = "AppError";
  }

  get body(): ErrorBody {
    return { message: this.message, code: this.code, ...(this.path ? { path: this.path } : {}) };
  }
}

/** An AppError whose code is declared with this status (see AppError). */
export const appError = <S extends ErrorStatus>(
  statusCode: S,
  code: ErrorCodeOf<S>,
  message: string,
  headers: Record<string, string> = {},
) => new AppError(statusCode, code, message, headers);

export const badRequest = (code: ErrorCodeOf<400>, message: string) => appError(400, code, message);
export const unauthorized = (code: ErrorCodeOf<401>, message: string) =>
  appError(401, code, message);
export const forbidden = (code: ErrorCodeOf<403>, message: string) => appError(403, code, message);
export const notFound = (code: ErrorCodeOf<404>, message: string) => appError(404, code, message);
export const conflict = (code: ErrorCodeOf<409>, message: string) => appError(409, code, message);
export const tooManyRequests = (
  code: ErrorCodeOf<429>,
  message: string,
  retryAfterSeconds: number,
) =>
  appError(429, code, message, {
    "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
/**
 * A refused field of the request: `text` says what is wrong in people's words (it names the
 * field itself); the body's `path` names it for programs.
 */
export const invalidField = (code: ErrorCodeOf<400>, path: string, text: string) =>
  new AppError(400, code, text, {}, path);

const VALIDATION_CODES: Record<string, ErrorCodeOf<400>> = {
  body: "validation.invalid_body",
  querystring: "validation.invalid_query",
  params: "validation.invalid_params",
  headers: "validation.invalid_headers",
};

/**
 * The one error handler (ARCHITECTURE section 3): every error leaves as `{ message, code }`
 * (and `path` for a refused field). 4xx messages are meant for users; 5xx details stay in
 * the log, never in the response.
 */
export function registerErrorHandler(app: FastifyInstance) {
  // The schemas' default messages name the field in people's words, here as in the forms.
  installValidationMessages();
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.statusCode).headers(error.headers).send(error.body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const field = issue?.instancePath.replace(/^\//, "").replaceAll("/", ".") || undefined;
      // The contract's messages name the field in people's words (validation-messages.ts).
      const message = issue?.message ?? "The request is not valid.";
      const code = VALIDATION_CODES[error.validationContext ?? "body"] ?? "validation.invalid_body";
      const body: ErrorBody = field ? { message, code, path: field } : { message, code };
      return reply.code(400).send(body);
    }
    if (isDatabaseUnavailable(error)) {
      // The pool reconnects by itself when the database is back: tell clients to retry.
      request.log.warn({ err: error }, "database unavailable");
      return reply
        .code(503)
        .header("retry-after", "5")
        .send({ message: MESSAGES.unavailable, code: "system.unavailable" } satisfies ErrorBody);
    }
    const status = error.statusCode ?? 500;
    if (status === 503) {
      // Load shedding (under-pressure) or shutdown: its Retry-After header is already set.
      return reply
        .code(503)
        .send({ message: MESSAGES.unavailable, code: "system.unavailable" } satisfies ErrorBody);
    }
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, unsupported media type):
      // their messages name the problem without revealing internals.
      return reply.code(status).send(clientError(error));
    }
    request.log.error({ err: error }, "request failed");
    return reply
      .code(500)
      .send({ message: MESSAGES.serverError, code: "system.error" } satisfies ErrorBody);
  });
}

/**
 * Fastify's router answers a malformed %-encoding or an over-long parameter itself, before
 * any hook, as `{ error, code, message, statusCode }`; this keeps the one `{ message, code }`
 * shape and names no internal code. Passed as the `frameworkErrors` server option.
 */
export function frameworkErrors(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
) {
  const tooLong = error.code === "FST_ERR_MAX_PARAM_LENGTH";
  reply
    .code(tooLong ? 414 : 400)
    .header("x-content-type-options", "nosniff")
    .header("cache-control", "no-store")
    .send(
      (tooLong
        ? { message: "The address is too long.", code: "request.address_too_long" }
        : {
            message: "The address is not valid.",
            code: "request.invalid_address",
          }) satisfies ErrorBody,
    );
}

function clientError(error: FastifyError): ErrorBody {
  const message = error.message.replace(/^FST_\w+:\s*/, "");
  // A route's request limit (@fastify/rate-limit): its Retry-After header is already set.
  if (error.statusCode === 429) return { message, code: "request.throttled" };
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return { message: "Request body is too large.", code: "request.too_large" };
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return { message: MESSAGES.jsonRequired, code: "request.json_required" };
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return { message: "Request body is not valid JSON.", code: "request.invalid_json" };
    default:
      return { message, code: "request.invalid" };
  }
}

const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
]);

/** A lost or refused database connection (checked on the error and its causes). */
function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    const code = typeof e.code === "string" ? e.code : "";
    // 08P01 is a statement the server refused to read (too many parameters), not an outage.
    if (UNAVAILABLE_CODES.has(code) || (code.startsWith("08") && code !== "08P01")) return true;
    // The embedded server's socket file is gone while it restarts.
    if (code === "ENOENT" && (e as { syscall?: unknown }).syscall === "connect") return true;
    const message = typeof e.message === "string" ? e.message : "";
    if (
      /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
        message,
      )
    )
      return true;
  }
  return false;
}
