import { createHash } from "node:crypto";
import fastifyRateLimit, { type RateLimitPluginOptions } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { MOST_JSON_DEPTH, nestedDeeperThan, unstorableText } from "../../plugins/input-guard";
import { invalidXapi, xapiNotFound } from "./cmi5.errors";
import type { Cmi5Service } from "./cmi5.service";
import { etagOf, type Preconditions, type XapiDocument } from "./xapi-resources";
import { XAPI_VERSION } from "./xapi-values";

/** State and profile documents an AU keeps (bookmarks, suspend data) stay small. */
const DOCUMENT_LIMIT = 1024 * 1024;
/** A batch of statements (an AU sending its interactions at once). */
const STATEMENTS_LIMIT = 2 * 1024 * 1024;

type Query = Record<string, string | undefined>;

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, PUT, POST, DELETE, OPTIONS",
  "access-control-allow-headers":
    "Authorization, Content-Type, X-Experience-API-Version, If-Match, If-None-Match",
  "access-control-expose-headers": "X-Experience-API-Version, ETag, Last-Modified",
  "access-control-max-age": "600",
};

/** The page an AU returns to (LMS.LaunchData's returnURL): it tells the portal's player. */
const RETURNED_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Unit closed</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px system-ui,sans-serif;margin:2rem;color:#1f2937}</style></head>
<body><main><p>This unit is closed. Your progress is saved.</p></main>
<script>
for (const target of [window.parent, window.opener]) {
  if (target && target !== window) target.postMessage({ type: "cmi5:returned" }, "*");
}
if (window.opener) window.close();
</script></body></html>`;

const RETURNED_CSP =
  "default-src 'none'; script-src 'sha256-" +
  createHash("sha256")
    .update(
      RETURNED_PAGE.slice(
        RETURNED_PAGE.indexOf("<script>") + 8,
        RETURNED_PAGE.indexOf("</script>"),
      ),
    )
    .digest("base64") +
  "'; style-src 'unsafe-inline'";

function documentOf(request: FastifyRequest): XapiDocument {
  const body = request.body;
  return {
    contentType: request.headers["content-type"] ?? "application/octet-stream",
    content: Buffer.isBuffer(body) ? body : Buffer.alloc(0),
  };
}

/** The If-Match and If-None-Match a write or delete of a document names. */
function preconditionsOf(request: FastifyRequest): Preconditions {
  const { "if-match": ifMatch, "if-none-match": ifNoneMatch } = request.headers;
  return { ifMatch, ifNoneMatch };
}

function sendDocument(reply: FastifyReply, doc: XapiDocument | string[]) {
  if (Array.isArray(doc)) return reply.code(200).type("application/json").send(JSON.stringify(doc));
  reply.header("etag", etagOf(doc.content));
  if (doc.updatedAt) reply.header("last-modified", doc.updatedAt.toUTCString());
  return reply.code(200).type(doc.contentType).send(doc.content);
}

/** Requests one AU session may make in a minute: far above any content's reporting. */
const XAPI_REQUESTS_PER_MINUTE = 1200;

/** Where the request counters are kept: the portal's own store (PostgreSQL or Redis). */
type RateLimitStore = Pick<RateLimitPluginOptions, "redis" | "store">;

function parseJson(request: FastifyRequest): unknown {
  const type = request.headers["content-type"] ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type.trim())) {
    throw invalidXapi("statements are sent as application/json.");
  }
  const text = documentOf(request).content.toString("utf8");
  if (nestedDeeperThan(text, MOST_JSON_DEPTH)) {
    throw invalidXapi(`the body is nested more than ${MOST_JSON_DEPTH} levels deep.`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidXapi("the body is not JSON.");
  }
  refuseUnstorable(body, "the body");
  return body;
}

/**
 * Text PostgreSQL cannot keep (a NUL, a broken character) is refused as the portal's own
 * routes refuse it, in a statement or in the parameters that are looked up.
 */
function refuseUnstorable(value: unknown, where: string) {
  const found = unstorableText(value, "");
  if (found) throw invalidXapi(`${found.path || where} ${found.problem}`);
}

function moreOf(request: FastifyRequest) {
  return (cursor: number) => {
    const next = new URLSearchParams(request.query as Record<string, string>);
    next.set("cursor", String(cursor));
    return `/xapi/statements?${next}`;
  };
}

/**
 * The LMS's resources on the content origin, where the AUs run: the one-time fetch URL and
 * the xAPI resources cmi5 needs (statements, activity state, agent profile, about). They
 * read no cookie: an AU is who its session's token says (`Authorization: Basic <token>`),
 * for its learner and registration only. Any origin may call them (the token is the
 * credential, never a cookie), as an AU hosted elsewhere must.
 */
export function registerCmi5Routes(
  parent: FastifyInstance,
  { cmi5, rateLimitStore }: { cmi5: Cmi5Service; rateLimitStore: RateLimitStore },
) {
  parent.register(async (app) => {
    // An AU reports at a person's pace; a flood from one session (or one address without
    // one) is refused before it costs the portal's database anything.
    await app.register(fastifyRateLimit, {
      ...rateLimitStore,
      max: XAPI_REQUESTS_PER_MINUTE,
      timeWindow: "1 minute",
      keyGenerator: (request) => {
        const auth = request.headers.authorization;
        return auth
          ? `xapi:${createHash("sha256").update(auth).digest("base64url")}`
          : `xapi-ip:${request.ip}`;
      },
    });
    // Documents are stored as sent, whatever their type; statements are read as JSON here.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      "*",
      { parseAs: "buffer", bodyLimit: STATEMENTS_LIMIT },
      (_req, body, done) => done(null, body),
    );
    app.addHook("onSend", async (request, reply) => {
      reply.headers(CORS);
      if (request.url.startsWith("/xapi/")) reply.header("x-experience-api-version", XAPI_VERSION);
    });
    // xAPI asks every request but `about` to name the version it speaks (1.0.x).
    app.addHook("preHandler", async (request) => {
      if (request.method === "OPTIONS" || !request.url.startsWith("/xapi/")) return;
      if (request.url.startsWith("/xapi/about")) return;
      const version = request.headers["x-experience-api-version"];
      if (typeof version !== "string" || !/^1\.0(\.\d+)?$/.test(version.trim())) {
        throw invalidXapi("the X-Experience-API-Version header must name 1.0.x.");
      }
      refuseUnstorable(request.query, "the query");
    });

    app.options("/xapi/*", async (_request, reply) => reply.code(204).send());
    app.options("/cmi5/fetch/:token", async (_request, reply) => reply.code(204).send());

    app.post<{ Params: { token: string } }>("/cmi5/fetch/:token", async (request, reply) => {
      reply.header("cache-control", "no-store");
      // cmi5 8.2: 200 with the auth token once, then 200 with an error object.
      return reply
        .code(200)
        .type("application/json")
        .send(await cmi5.fetch(request.params.token));
    });

    app.get("/cmi5/returned", async (_request, reply) => {
      // Beside the content origin's own policy (who may frame it), this page's script only.
      const framing = reply.getHeader("content-security-policy");
      reply.header(
        "content-security-policy",
        framing ? `${framing}; ${RETURNED_CSP}` : RETURNED_CSP,
      );
      return reply.type("text/html; charset=utf-8").send(RETURNED_PAGE);
    });

    app.get("/xapi/about", async () => ({ version: [XAPI_VERSION] }));

    app.put<{ Querystring: Query }>("/xapi/statements", async (request, reply) => {
      const statementId = request.query.statementId;
      if (!statementId) throw invalidXapi("PUT names the statement with statementId.");
      const statement = parseJson(request);
      await cmi5.storeStatements(request.headers.authorization, {
        statements: [statement],
        statementId,
      });
      return reply.code(204).send();
    });

    app.post<{ Querystring: Query }>("/xapi/statements", async (request) => {
      const body = parseJson(request);
      const statements = Array.isArray(body) ? body : [body];
      if (!statements.length) throw invalidXapi("no statement was sent.");
      return cmi5.storeStatements(request.headers.authorization, { statements });
    });

    app.get<{ Querystring: Query }>("/xapi/statements", async (request) => {
      const q = request.query;
      const one = q.statementId ?? q.voidedStatementId;
      if (one !== undefined) {
        const statement = await cmi5.getStatement(request.headers.authorization, one);
        // Voiding is refused, so no stored statement is voided: a voidedStatementId finds none.
        if (q.voidedStatementId !== undefined) throw xapiNotFound();
        return statement;
      }
      const limit = q.limit === undefined || q.limit === "0" ? 100 : Number(q.limit);
      const cursor = q.cursor === undefined ? undefined : Number(q.cursor);
      if (
        !Number.isInteger(limit) ||
        limit < 1 ||
        (cursor !== undefined && !Number.isSafeInteger(cursor))
      ) {
        throw invalidXapi("limit and cursor are whole numbers.");
      }
      return cmi5.queryStatements(request.headers.authorization, {
        agent: q.agent,
        registration: q.registration,
        verb: q.verb,
        activity: q.activity,
        since: q.since,
        until: q.until,
        ascending: q.ascending === "true",
        limit: Math.min(limit, 1000),
        cursor,
        moreOf: moreOf(request),
      });
    });

    app.get<{ Querystring: Query }>("/xapi/activities/state", async (request, reply) =>
      sendDocument(reply, await cmi5.getState(request.headers.authorization, request.query)),
    );
    for (const mode of ["put", "post"] as const) {
      app[mode]<{ Querystring: Query }>(
        "/xapi/activities/state",
        { bodyLimit: DOCUMENT_LIMIT },
        async (request, reply) => {
          await cmi5.writeState(
            request.headers.authorization,
            mode,
            request.query,
            documentOf(request),
            preconditionsOf(request),
          );
          return reply.code(204).send();
        },
      );
      app[mode]<{ Querystring: Query }>(
        "/xapi/agents/profile",
        { bodyLimit: DOCUMENT_LIMIT },
        async (request, reply) => {
          await cmi5.writeProfile(
            request.headers.authorization,
            mode,
            request.query,
            documentOf(request),
            preconditionsOf(request),
          );
          return reply.code(204).send();
        },
      );
    }
    app.delete<{ Querystring: Query }>("/xapi/activities/state", async (request, reply) => {
      await cmi5.deleteState(
        request.headers.authorization,
        request.query,
        preconditionsOf(request),
      );
      return reply.code(204).send();
    });

    app.get<{ Querystring: Query }>("/xapi/agents/profile", async (request, reply) =>
      sendDocument(reply, await cmi5.getProfile(request.headers.authorization, request.query)),
    );
    app.delete<{ Querystring: Query }>("/xapi/agents/profile", async (request, reply) => {
      await cmi5.deleteProfile(
        request.headers.authorization,
        request.query,
        preconditionsOf(request),
      );
      return reply.code(204).send();
    });
  });
}
