import type { FastifyInstance } from "fastify";
import { MESSAGES } from "../../contract";
import { appError } from "./errors";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The raw upload PUT carries file bytes, not JSON; the Origin check still applies. */
    allowNonJsonBody?: boolean;
    /**
     * The SAML assertion consumer service, which an identity provider's page posts a form to
     * from its own site. The route acts on the post only when the browser says it came from
     * Credo's own page, and otherwise answers with that page (see saml-repost.ts).
     */
    crossSiteFormPost?: boolean;
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cross-site request forgery defence in depth, beside SameSite=Lax cookies: a
 * state-changing request must carry JSON (an HTML form cannot send it cross-site
 * without a CORS preflight we never grant), and a present Origin must be our own.
 */
export function registerCsrfGuard(app: FastifyInstance, options: { publicOrigin: string }) {
  app.addHook("onRequest", async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (request.routeOptions.config?.crossSiteFormPost) return;
    const origin = request.headers.origin;
    if (origin !== undefined) {
      // The Host header cannot be set by a cross-site page, so our own host counts as ours.
      const ownOrigin = `${request.protocol}://${request.host}`;
      if (origin !== options.publicOrigin && origin !== ownOrigin) {
        throw appError(403, "request.cross_site", MESSAGES.crossSite);
      }
    }
    if (request.routeOptions.config?.allowNonJsonBody) return;
    const hasBody =
      request.headers["transfer-encoding"] !== undefined ||
      Number(request.headers["content-length"] ?? 0) > 0;
    const type = request.headers["content-type"];
    if ((hasBody || type !== undefined) && !isJson(type)) {
      throw appError(415, "request.json_required", MESSAGES.jsonRequired);
    }
  });
}

function isJson(type: string | undefined): boolean {
  return type !== undefined && /^application\/json\s*(;|$)/i.test(type);
}
