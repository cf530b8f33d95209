import { existsSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { type ErrorBody, MESSAGES } from "../../contract";

/** Paths that belong to the server; never answered with the web app. */
const SERVER_PREFIXES = ["/api/", "/objects/"];

/**
 * Serves the built web client with an SPA fallback: unknown page paths get index.html
 * (the client router shows 'Page Not Found'); unknown API paths get a JSON 404.
 */
export async function registerStaticClient(app: FastifyInstance, options: { root: string }) {
  const hasClient = existsSync(join(options.root, "index.html"));
  // Registered even without a built client: object downloads use its sendFile (Range, ETag).
  await app.register(fastifyStatic, {
    root: options.root,
    serve: hasClient,
    // One route per built file, so every other path reaches the fallback below.
    wildcard: false,
    index: false,
    // Vite fingerprints assets, so they can be cached for good; index.html never.
    setHeaders(res, path) {
      res.setHeader(
        "cache-control",
        /[\\/]assets[\\/]/.test(path) ? "public, max-age=31536000, immutable" : "no-cache",
      );
    },
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? "/";
    const wantsPage =
      (request.method === "GET" || request.method === "HEAD") &&
      !SERVER_PREFIXES.some((prefix) => path.startsWith(prefix) || path === prefix.slice(0, -1));
    if (wantsPage && hasClient) {
      return reply.header("cache-control", "no-cache").type("text/html").sendFile("index.html");
    }
    if (wantsPage) {
      return reply
        .code(503)
        .type("text/plain")
        .send("The web client is not built yet: run `npm run build` (npm start does it for you).");
    }
    return reply
      .code(404)
      .send({ message: MESSAGES.notFound, code: "request.not_found" } satisfies ErrorBody);
  });
}
