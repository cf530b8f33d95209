import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet, { type HelmetOptions } from "helmet";
import type { Config } from "../config";

/**
 * Content-Security-Policy the built client satisfies: no inline scripts, no eval.
 * Inline style attributes are allowed because React and Radix position popovers with them.
 */
export function contentSecurityPolicy(config: Config): Record<string, string[] | null> {
  const storage = config.s3?.endpoint ? [new URL(config.s3.endpoint).origin] : [];
  const s3Hosts = config.s3 && !config.s3.endpoint ? ["https://*.amazonaws.com"] : [];
  // The Firebase web SDK's endpoints, only when the identity service is configured; in
  // development and tests the Auth emulator instead (config.ts refuses it in production).
  const firebase = config.firebase
    ? config.firebase.emulatorHost
      ? [`http://${config.firebase.emulatorHost}`]
      : [
          "https://identitytoolkit.googleapis.com",
          "https://securetoken.googleapis.com",
          `https://${config.firebase.authDomain}`,
        ]
    : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "data:", "blob:", ...storage, ...s3Hosts],
    mediaSrc: ["'self'", "blob:", ...storage, ...s3Hosts],
    connectSrc: ["'self'", ...storage, ...s3Hosts, ...firebase],
    fontSrc: ["'self'", "data:"],
    // Package content (SCORM, cmi5) plays in a sandboxed frame from its own origin.
    frameSrc: [
      config.contentOrigin,
      ...(config.firebase ? [`https://${config.firebase.authDomain}`] : []),
    ],
    objectSrc: ["'none'"],
    // The client sets no <base>; 'none' stops an injected one from re-rooting relative URLs.
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    // Off in development so the portal works over plain http on a LAN address.
    upgradeInsecureRequests: config.production ? [] : null,
  };
}

/**
 * The API documentation page needs its own script and style hashes (swagger-ui's static
 * CSP), but the same frame, <base> and plain-http rules as every other page of the portal.
 */
export function apiDocsContentSecurityPolicy(header: string, config: Config): string {
  const strict = header
    .replace("base-uri 'self'", "base-uri 'none'")
    .replace("frame-ancestors 'self'", "frame-ancestors 'none'");
  return config.production ? strict : strict.replace(/\s*upgrade-insecure-requests;?/, "");
}

/**
 * Helmet's response headers, worked out once at start-up and copied onto every response.
 * (@fastify/helmet rebuilds helmet's middleware, parsing every CSP directive, on each request:
 * 6% of the CPU of GET /api/auth/me under load.) The headers do not depend on the
 * request, so the result is the same.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions) {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
