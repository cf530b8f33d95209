import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { activityBodySchema, activitySchema } from "../../../contract";
import { errorResponses } from "../../openapi/responses";
import { requireRole, requireUser, sessionOf } from "../../plugins/sessions";
import type { AccreditationService } from "./accreditation.service";

const tags = ["activity"];
const courseParams = z.object({ id: z.string().min(1).max(64) });

/** The activity page: read by its learners and administrators, edited by administrators. */
export function registerAccreditationRoutes(
  parent: FastifyInstance,
  deps: { accreditation: AccreditationService },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { accreditation } = deps;

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
    async (request) => accreditation.page(sessionOf(request).user, request.params.id),
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
    async (request) => accreditation.save(request.params.id, request.body, sessionOf(request).user),
  );
}
