import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from "fastify";
import { LRUCache } from "lru-cache";

/**
 * Security events (ASVS V16): one structured log line each, `{ event, ip, … }`, never a
 * password, key, cookie or token. Sign-in and account changes are logged by their routes
 * through `securityEvent`; every refused request (401, 403, 429) by the hook below.
 */
export type SecurityEventName =
  | "auth.login.success"
  | "auth.login.failure"
  | "auth.login.second_step"
  | "auth.second_factor.success"
  | "auth.second_factor.failure"
  | "auth.second_factor.added"
  | "auth.second_factor.removed"
  | "auth.second_factor.policy_updated"
  | "auth.logout"
  | "auth.sessions.ended"
  | "auth.password.setup"
  | "auth.password.setup.failure"
  | "auth.password.changed"
  | "auth.password.change.failure"
  | "auth.password.reset.requested"
  | "auth.password.reset"
  | "auth.password.reset.failure"
  | "auth.admin.created"
  | "auth.admin.setup.failure"
  | "learner.registered"
  | "learner.restricted"
  | "learner.unrestricted"
  | "learner.deleted"
  | "access.denied"
  | "access.throttled";

export interface SecurityEventFields {
  /** The account the event is about. */
  userId?: string;
  /** The signed-in user who did it, when it is someone else (an administrator). */
  actorId?: string;
  email?: string;
  /** Why something was refused: the HTTP status it was refused with. */
  status?: number;
}

export function securityEvent(
  request: FastifyRequest,
  event: SecurityEventName,
  fields: SecurityEventFields = {},
) {
  const failed = fields.status !== undefined && fields.status >= 400;
  request.log[failed ? "warn" : "info"](
    { event, ip: request.ip, ...fields },
    `security event ${event}`,
  );
}

/**
 * A client hammering a limited route is logged once a minute per route and client, with
 * the count of the throttled requests since: logging each of thousands of 429s would let
 * one person fill the logs and take the CPU they are meant to protect.
 */
const THROTTLE_LOG_WINDOW_MS = 60_000;

/** Logs every refused request with its route (never its query string) and who sent it. */
export function registerSecurityEvents(app: FastifyInstance) {
  const throttled = new LRUCache<string, { since: number; repeats: number }>({ max: 10_000 });
  app.addHook("onResponse", async (request, reply) => {
    const status = reply.statusCode;
    if (status !== 401 && status !== 403 && status !== 429) return;
    // The web client asks who is signed in on every start: "nobody" is not an attack.
    if (status === 401 && request.routeOptions.url === "/api/auth/me") return;
    const route = request.routeOptions.url ?? null;
    const userId = request.session?.user.id ?? null;
    let repeats: number | undefined;
    if (status === 429) {
      const key = `${userId ?? request.ip} ${route}`;
      const seen = throttled.get(key);
      if (seen && Date.now() - seen.since < THROTTLE_LOG_WINDOW_MS) {
        seen.repeats += 1;
        return;
      }
      repeats = seen?.repeats ?? 0;
      throttled.set(key, { since: Date.now(), repeats: 0 });
    }
    request.log.warn(
      {
        event: status === 429 ? "access.throttled" : "access.denied",
        status,
        method: request.method,
        route,
        userId,
        role: request.session?.user.role ?? null,
        ip: request.ip,
        // Throttled requests from this client to this route since the previous line.
        ...(repeats === undefined ? {} : { repeats }),
      },
      status === 429 ? "security event access.throttled" : "security event access.denied",
    );
  });
}

/** Query parameters whose values are secrets (emailed links carry `token`). */
const SECRET_PARAMS = /([?&](?:token|inviteToken|adminKey|key|password|secret)=)[^&#]*/gi;

/** A URL as it may be logged: secret query values replaced. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, "$1[REDACTED]");
}

type LoggerOptions = FastifyServerOptions["logger"];

interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/** What a failed statement's error says of the values it carried (Drizzle: "params: ..."). */
const STATEMENT_VALUES = /\nparams: [\s\S]*?(?=\n {4}at |$)/;

/**
 * An error as it may be logged: its kind, message, code, stack and cause, without the
 * values a failed database statement carried (a learner's answers, an anonymous evaluation's
 * comments, a password hash) or the database's echo of them (`detail`).
 */
export function serializeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error))
    return { type: typeof error, message: "(not an Error)", stack: "" };
  const { code, cause } = error as Error & { code?: unknown; cause?: unknown };
  const scrub = (text: string) => text.replace(STATEMENT_VALUES, "\nparams: [REDACTED]");
  return {
    type: error.name,
    message: scrub(error.message),
    stack: scrub(error.stack ?? ""),
    ...(typeof code === "string" || typeof code === "number" ? { code } : {}),
    ...(cause !== undefined && depth < 3 ? { cause: serializeError(cause, depth + 1) } : {}),
  };
}

/**
 * The server's logger options with secrets kept out: request lines log the URL without
 * token values (an invitation or reset link opens the web client with `?token=`), any
 * field named like a secret is censored wherever a log call puts it, errors are logged
 * without the values of a failed statement, and request bodies are never logged.
 */
export function safeLoggerOptions(logger: LoggerOptions): LoggerOptions {
  if (!logger) return logger;
  const options = logger === true ? {} : logger;
  return {
    ...options,
    redact: {
      paths: [
        "password",
        "currentPassword",
        "newPassword",
        "adminKey",
        "token",
        "inviteToken",
        "cookie",
        "*.password",
        "*.currentPassword",
        "*.newPassword",
        "*.adminKey",
        "*.token",
        "*.inviteToken",
        "req.headers.cookie",
        "req.headers.authorization",
        'res.headers["set-cookie"]',
      ],
      censor: "[REDACTED]",
    },
    serializers: {
      ...options.serializers,
      err: (error: unknown) => serializeError(error),
      req: (req) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}
