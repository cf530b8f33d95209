import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { FastifyInstance, RouteOptions } from "fastify";

/** A route as registered, with its schema as the document will read it. */
export type RegisteredRoute = Pick<RouteOptions, "method" | "url" | "schema" | "config">;

/**
 * The routes of the next Fastify instance made in this process (call it just before
 * buildApp), collected as they are registered: Fastify has no public list of them.
 */
export function captureRoutes(): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  const onInit = (message: unknown) => {
    unsubscribe("fastify.initialization", onInit);
    const { fastify } = message as { fastify: FastifyInstance };
    // The route's own options object: read later, its schema is the one the app's onRoute
    // hooks left, as the document reads it.
    fastify.addHook("onRoute", (route) => {
      routes.push(route);
    });
  };
  subscribe("fastify.initialization", onInit);
  return routes;
}
