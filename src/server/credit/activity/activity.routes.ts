import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { acknowledgeResponseSchema } from "../../../contract";
import { errorResponses, STEP_REFUSALS } from "../../openapi/responses";
import { requireRole, sessionOf } from "../../plugins/sessions";
import type { ActivityService } from "./activity.service";

const tags = ["activity"];
const courseParams = z.object({ id: z.string().min(1).max(64) });
/** The activity page acknowledged by its learners (the page itself: accreditation.routes.ts). */
export function registerActivityRoutes(
  parent: FastifyInstance,
  deps: { activity: ActivityService },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { activity } = deps;

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
