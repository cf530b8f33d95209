import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { courseWatchSchema, heartbeatBodySchema, moduleWatchSchema } from "../../../contract";
import { errorResponses } from "../../openapi/responses";
import { requireRole, sessionOf } from "../../plugins/sessions";
import type { WatchingService } from "./watching.service";

const tags = ["watching"];
const id = z.string().min(1).max(64);

/**
 * A player beats every 5 s and on pause, seek and end: 120 a minute leaves room for that
 * and stops a script hammering the row lock. Counted per signed-in session, after the role
 * check: learners sharing an address (a training room, a hospital) each have their own
 * budget, and a request without the session cannot spend it.
 */
const heartbeatLimit = {
  rateLimit: {
    max: 120,
    timeWindow: "1 minute",
    hook: "preHandler" as const,
    keyGenerator: (request: FastifyRequest) => `watch:${sessionOf(request).idHash}`,
  },
};

export function registerWatchingRoutes(
  parent: FastifyInstance,
  { watching }: { watching: WatchingService },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.post(
    "/api/progress/heartbeat",
    {
      schema: {
        tags,
        body: heartbeatBodySchema,
        response: {
          200: moduleWatchSchema,
          ...errorResponses([
            "courses.not_found",
            "enrollments.not_enrolled",
            "courses.module_not_found",
            "courses.module_locked",
            "watching.not_a_video",
            "watching.duration_mismatch",
            "watching.beyond_duration",
            "watching.impossible_report",
          ]),
        },
      },
      preValidation: requireRole("learner"),
      config: heartbeatLimit,
    },
    async (request) =>
      watching.heartbeat({ userId: sessionOf(request).user.id, body: request.body }),
  );

  app.get(
    "/api/progress/watch/:courseId",
    {
      schema: {
        tags,
        params: z.object({ courseId: id }),
        response: { 200: courseWatchSchema, ...errorResponses(["courses.not_found"]) },
      },
      preValidation: requireRole("learner"),
    },
    async (request) =>
      watching.mine({ userId: sessionOf(request).user.id, courseId: request.params.courseId }),
  );

  app.get(
    "/api/admin/watch/:userId/:courseId",
    {
      schema: {
        tags,
        params: z.object({ userId: id, courseId: id }),
        response: {
          200: courseWatchSchema,
          ...errorResponses(["courses.not_found", "enrollments.not_found"]),
        },
      },
      preValidation: requireRole("admin"),
    },
    async (request) => watching.ofLearner(request.params),
  );
}
