import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { acknowledgeResponseSchema, activityBodySchema, activitySchema } from "../../../contract";
import { errorResponses, STEP_REFUSALS } from "../../openapi/responses";
import { requireRole, requireUser, sessionOf } from "../../plugins/sessions";
import type { ActivityService } from "./activity.service";

const tags = ["activity"];
const courseParams = z.object({ id: z.string().min(1).max(64) });
/** The activity page: read by its learners and administrators, edited by administrators, acknowledged by learners. */
export function registerActivityRoutes(
  parent: FastifyInstance,
  deps: { activity: ActivityService },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { activity } = deps;

  app.get(
    "/api/courses/:id/activity",
    {
      schema: {
        tags,
        params: courseParams,
        response: {
          200: activitySchema,
          ...errorResponses(["courses.not_found", "enrollments.not_enrolled"]),
        },
      },
      preValidation: requireUser,
    },
    async (request) => activity.activity(sessionOf(request).user, request.params.id),
  );
  app.put(
    "/api/courses/:id/activity",
    {
      schema: {
        tags,
        params: courseParams,
        body: activityBodySchema,
        response: { 200: activitySchema, ...errorResponses(["courses.not_found"]) },
      },
      preValidation: requireRole("admin"),
    },
    async (request) =>
      activity.saveActivity(request.params.id, request.body, sessionOf(request).user),
  );
  app.post(
    "/api/courses/:id/acknowledge",
    {
      schema: {
        tags,
        params: courseParams,
        response: { 200: acknowledgeResponseSchema, ...errorResponses(STEP_REFUSALS) },
      },
      preValidation: requireRole("learner"),
    },
    async (request) => activity.acknowledge(sessionOf(request).user.id, request.params.id),
  );
}
