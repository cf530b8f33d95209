import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { MESSAGES } from "../../contract";

/** An error whose message is safe to show to the user, with its HTTP status. */
export class AppError extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 421 | 429 | 503,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message: string = MESSAGES.notSignedIn) => new AppError(401, message);
export const forbidden = (message: string = MESSAGES.forbidden) => new AppError(403, message);
export const notFound = (message: string = MESSAGES.notFound) => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, message, { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/**
 * The one error handler (ARCHITECTURE section 3): every error leaves as `{ message }`.
 * 4xx messages are meant for users; 5xx details stay in the log, never in the response.
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.statusCode).headers(error.headers).send({ message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const field = issue?.instancePath.replace(/^\//, "").replaceAll("/", ".") || undefined;
      const text = issue?.message ?? "Invalid request";
      return reply.code(400).send({ message: field ? `${field}: ${text}` : text });
    }
    if (isDatabaseUnavailable(error)) {
      // The pool reconnects by itself when the database is back: tell clients to retry.
      request.log.warn({ err: error }, "database unavailable");
      return reply.code(503).header("retry-after", "5").send({ message: MESSAGES.unavailable });
    }
    const status = error.statusCode ?? 500;
    if (status === 503) {
      // Load shedding (under-pressure) or shutdown: its Retry-After header is already set.
      return reply.code(503).send({ message: MESSAGES.unavailable });
    }
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, unsupported media type):
      // their messages name the problem without revealing internals.
      return reply.code(status).send({ message: clientErrorMessage(error) });
    }
    request.log.error({ err: error }, "request failed");
    return reply.code(500).send({ message: MESSAGES.serverError });
  });
}

/**
 * Fastify's router answers a malformed %-encoding or an over-long parameter itself, before
 * any hook, as `{ error, code, message, statusCode }`; this keeps the one `{ message }` shape
 * and names no internal code. Passed as the `frameworkErrors` server option.
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
    .send({ message: tooLong ? "The address is too long." : "The address is not valid." });
}

function clientErrorMessage(error: FastifyError): string {
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return "Request body is too large.";
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return MESSAGES.jsonRequired;
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return "Request body is not valid JSON.";
    default:
      return error.message.replace(/^FST_\w+:\s*/, "");
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
    if (UNAVAILABLE_CODES.has(code) || code.startsWith("08")) return true;
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
