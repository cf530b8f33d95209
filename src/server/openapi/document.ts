import type { FastifyDynamicSwaggerOptions, SwaggerTransform } from "@fastify/swagger";
import type { FastifyInstance, RouteOptions } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { ERROR_CODES, type ErrorCode } from "../../contract";
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_HOURS } from "../plugins/idempotency";
import { isRoleGuard, requireUser, SESSION_COOKIE } from "../plugins/sessions";
import { documentedErrorAnswer, errorAnswer, errorCodesOf } from "./responses";

/** The security scheme of the session cookie. */
export const SESSION_SCHEME = "session";

/** The cookie's name over HTTPS (plugins/sessions.ts): a `__Host-` cookie, Secure, path /. */
const PRODUCTION_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Probes of load balancers, which the host guard (plugins/host-guard.ts) answers on any Host. */
const PROBES = new Set(["/api/health", "/api/ready"]);

const CROSS_SITE_RULES =
  "State-changing requests (POST, PUT, PATCH, DELETE) are checked against cross-site " +
  "request forgery, beside the cookie's SameSite=Lax: an `Origin` header, when present, must be the portal's public origin or the request's own scheme and host (else " +
  "403 `request.cross_site`), and a request that carries a body or a Content-Type must send " +
  "`application/json` (else 415 `request.json_required`), which an HTML form cannot send " +
  "cross-site without a CORS preflight the portal never grants. The raw upload " +
  "(`PUT /api/objects/upload/{id}`) and the one-click unsubscribe take other bodies; the " +
  "Origin check still applies to them.";

const API_DESCRIPTION = [
  "Every error answer is JSON `{ message, code, path? }`: `message` is for people and may be " +
    "reworded; `code` is stable, and each operation lists, per status, the codes it sends; " +
    "`path` names a refused field (`questions.0.text`).",
  "Besides each operation's answers, any address may get 404 `request.not_found` (no such " +
    "route), 400 `request.invalid_address` (a malformed %-encoding) or 414 " +
    "`request.address_too_long` before any route is chosen.",
  `Sessions: a signed-in user holds the \`${PRODUCTION_SESSION_COOKIE}\` cookie ` +
    `(\`${SESSION_COOKIE}\` when the portal is served over plain HTTP in development), ` +
    "set by the sign-in operations. Operations that need it name the role they require, if any.",
  CROSS_SITE_RULES,
  "Limited operations answer 429 with a `Retry-After` header, as do 503 answers of an " +
    "overloaded server or a lost database.",
].join("\n\n");

/** The @fastify/swagger options: the document's frame and how each route is shown in it. */
export function openapiOptions({ productName }: { productName: string }) {
  return {
    openapi: {
      // 3.1: a security requirement may name the role an operation needs.
      openapi: "3.1.0",
      info: { title: `${productName} LMS API`, version: "1.0.0", description: API_DESCRIPTION },
      components: {
        securitySchemes: {
          [SESSION_SCHEME]: {
            type: "apiKey",
            in: "cookie",
            name: PRODUCTION_SESSION_COOKIE,
            description:
              "The session cookie (HttpOnly, Secure, SameSite=Lax). A requirement's scopes " +
              `name the role the operation needs ("admin" or "learner"); none means any ` +
              `signed-in user. ${CROSS_SITE_RULES}`,
          },
        },
      },
    },
    transform: documentRouteSchema,
  } satisfies FastifyDynamicSwaggerOptions;
}

type ResponseMap = Record<string, unknown>;

/**
 * How a route's schema enters the document: the zod schemas become JSON schemas, error
 * answers show only their own codes, and file answers keep the headers they declare.
 */
const documentRouteSchema: SwaggerTransform = (input) => {
  const result = documentOwnSchema(input);
  if (input.route.config?.idempotent) {
    result.schema = { ...result.schema, headers: IDEMPOTENCY_KEY_HEADER };
  }
  return result;
};

/** The header of idempotent creation (plugins/idempotency.ts), as the document shows it. */
const IDEMPOTENCY_KEY_HEADER = {
  type: "object",
  properties: {
    [IDEMPOTENCY_HEADER]: {
      type: "string",
      minLength: 1,
      maxLength: 255,
      description:
        "Optional. One key per form opening (e.g. a random UUID). A repeat with the same key " +
        "by the same user answers as the first request did, with an `Idempotent-Replayed: " +
        "true` header, and changes nothing; while the first is still under way the repeat " +
        "waits for its answer (409 `request.idempotency_in_progress` after 15 s). The same key " +
        "with another body or address is refused (409 `request.idempotency_key_reused`). A " +
        "refused request frees its key; a successful answer is kept " +
        `${IDEMPOTENCY_KEY_HOURS} hours.`,
    },
  },
};

/** The route's own document, before the header of idempotent creation is added. */
const documentOwnSchema: SwaggerTransform = (input) => {
  const response = input.schema?.response as ResponseMap | undefined;
  if (!response) return jsonSchemaTransform(input);
  const shown = Object.fromEntries(
    Object.entries(response).map(([status, answer]) => [
      status,
      errorCodesOf(answer) ? documentedErrorAnswer(answer as never) : answer,
    ]),
  );
  const result = jsonSchemaTransform({ ...input, schema: { ...input.schema, response: shown } });
  // The zod transform keeps only the description and content of a content-typed answer.
  const transformed = result.schema.response as ResponseMap | undefined;
  for (const [status, answer] of Object.entries(response)) {
    const headers = (answer as { content?: unknown; headers?: unknown }).headers;
    const target = transformed?.[status] as { headers?: unknown } | undefined;
    if (headers && target && (answer as { content?: unknown }).content) target.headers = headers;
  }
  return result;
};

/**
 * onRoute hook: adds to a route's schema the answers that every route of its kind can give,
 * beside the ones the route declares with errorResponses(): validation of its parameters,
 * query and body; the session and role guards (401, 403) and the session security
 * requirement; the cross-site checks of state-changing requests (403, 415); a body's parsing
 * and size (400, 413); the host guard (421); route and download limits (429); and the
 * server's own failures (500, 503). Registered before the routes (app.ts).
 */
export function documentRoute(this: FastifyInstance, route: RouteOptions) {
  const { schema } = route;
  if (!schema || schema.hide) return;
  const methods = [route.method].flat();
  const config = route.config ?? {};
  const codes: ErrorCode[] = ["system.error", "system.unavailable", "input.unicode"];
  if (schema.params) codes.push("validation.invalid_params");
  if (schema.querystring) codes.push("validation.invalid_query");
  if (schema.body) codes.push("validation.invalid_body");
  if (!PROBES.has(route.url)) codes.push("request.wrong_host");
  if (methods.some((method) => !SAFE_METHODS.has(method))) {
    // The assertion consumer service takes the identity provider's cross-site form (csrf.ts).
    if (!config.crossSiteFormPost) codes.push("request.cross_site");
    if (!config.allowNonJsonBody && !config.crossSiteFormPost) codes.push("request.json_required");
    // Not where the raw upload streams its body past every parser.
    if (this.hasContentTypeParser("application/json")) {
      codes.push("request.invalid_json", "request.too_large");
    }
  }
  if (config.rateLimit) codes.push("request.throttled");
  if (config.expensive) codes.push("downloads.throttled");
  if (config.idempotent) {
    codes.push(
      "validation.invalid_headers",
      "request.idempotency_key_reused",
      "request.idempotency_in_progress",
    );
  }

  const hooks = [route.preValidation, route.preHandler].flat();
  const roleGuard = hooks.find(isRoleGuard);
  let security: { [SESSION_SCHEME]: string[] }[] | undefined;
  if (roleGuard || hooks.includes(requireUser)) {
    codes.push("auth.not_signed_in");
    security = [{ [SESSION_SCHEME]: roleGuard ? [roleGuard.role] : [] }];
    if (roleGuard) codes.push("auth.forbidden");
  }

  const response: ResponseMap = { ...(schema.response as ResponseMap | undefined) };
  const byStatus = new Map<number, Set<ErrorCode>>();
  for (const [status, answer] of Object.entries(response)) {
    const declared = errorCodesOf(answer);
    if (declared) {
      byStatus.set(declared.status, new Set(declared.codes));
    } else if (Number(status) >= 400) {
      throw new Error(
        `${methods.join(",")} ${route.url}: declare its ${status} answer with errorResponses()`,
      );
    }
  }
  for (const code of codes) {
    const status = ERROR_CODES[code];
    byStatus.set(status, (byStatus.get(status) ?? new Set()).add(code));
  }
  for (const [status, list] of byStatus) response[status] = errorAnswer(status, list);
  route.schema = { ...schema, response, ...(security ? { security } : {}) };
}
