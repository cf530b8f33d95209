import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { MESSAGES } from "../../../contract";
import { appError, frameworkErrors, registerErrorHandler } from "../../plugins/errors";

/**
 * The content origin's own server: package content (SCORM, cmi5) and what its run time
 * talks to, apart from the portal. It has none of the portal's routes and neither sets nor
 * reads a cookie, so a package, whatever its scripts do, holds no right of a signed-in user
 * (SECURITY.md, "Package content").
 */
export function createContentApp(deps: {
  contentOrigin: string;
  portalOrigin: string;
  production: boolean;
  log: FastifyBaseLogger;
}): ContentApp {
  const host = new URL(deps.contentOrigin).host.toLowerCase();
  const content = Fastify({
    loggerInstance: deps.log.child({ origin: "content" }),
    logController: new LogController({ disableRequestLogging: true }),
    // A package's media may be large and slow to arrive; headers must come promptly.
    http: { headersTimeout: 30_000, connectionsCheckingInterval: 5_000 },
    keepAliveTimeout: 72_000,
    return503OnClosing: true,
    ajv: { customOptions: { coerceTypes: false } },
    frameworkErrors,
  });
  content.setValidatorCompiler(validatorCompiler);
  content.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(content);

  content.addHook("onRequest", async (request, reply) => {
    // DNS rebinding: only the content origin's own host is served (loopback names while
    // developing, where the portal itself is opened by address).
    const asked = (request.host ?? "").toLowerCase();
    if (asked !== host && (deps.production || !isLoopback(asked))) {
      throw appError(421, "request.wrong_host", MESSAGES.wrongHost);
    }
    reply.headers({
      "x-content-type-options": "nosniff",
      // A link's token is in its path: it never leaves in a Referer.
      "referrer-policy": "no-referrer",
      // Only the portal (and the content's own launcher) may frame the content.
      "content-security-policy": `frame-ancestors ${deps.portalOrigin} ${deps.contentOrigin}`,
      "cross-origin-resource-policy": "same-site",
    });
  });
  content.addHook("onSend", async (_request, reply, payload) => {
    // Nothing on this origin may leave a cookie, whatever a route does.
    reply.removeHeader("set-cookie");
    return payload;
  });
  content.addHook("onResponse", (request, reply, done) => {
    request.log[deps.production ? "info" : "debug"](
      { status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      `${request.method} content ${request.url.replace(/^\/p\/[^/]+/, "/p/…").split("?")[0]}`,
    );
    done();
  });
  return content;
}

const isLoopback = (host: string) =>
  /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(host) || /\.localhost(:\d+)?$/.test(host);

declare module "fastify" {
  interface FastifyInstance {
    /** The content origin's server, beside the portal's (main.ts listens on both). */
    content: ContentApp;
  }
}

/** The content origin's server, as features register their routes on it. */
export type ContentApp = FastifyInstance;
