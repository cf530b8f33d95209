import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { MESSAGES, type PublicConfig, publicConfigSchema } from "../../../contract";
import { errorResponses } from "../../openapi/responses";

export interface SystemRoutesOptions {
  publicConfig: PublicConfig;
  /** Resolves when the database answers. */
  ping(): Promise<void>;
}

const statusSchema = z.object({ status: z.string() });

/** Liveness, readiness and the configuration the web client needs at start. */
export function registerSystemRoutes(parent: FastifyInstance, options: SystemRoutesOptions) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const tags = ["system"];

  app.get("/api/health", { schema: { tags, response: { 200: statusSchema } } }, async () => ({
    status: "ok",
  }));

  app.get(
    "/api/ready",
    {
      schema: {
        tags,
        response: { 200: statusSchema, ...errorResponses(["system.unavailable"]) },
      },
    },
    async (request, reply) => {
      try {
        await options.ping();
        return { status: "ready" };
      } catch (err) {
        request.log.warn({ err }, "readiness check failed");
        return reply.code(503).send({ message: MESSAGES.unavailable, code: "system.unavailable" });
      }
    },
  );

  app.get("/api/config", { schema: { tags, response: { 200: publicConfigSchema } } }, async () => {
    return options.publicConfig;
  });
}
