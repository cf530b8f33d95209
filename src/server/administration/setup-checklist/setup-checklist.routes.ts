import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { setupChecklistSchema } from "../../../contract";
import { emptyAnswer } from "../../openapi/responses";
import { requireRole, sessionOf } from "../../plugins/sessions";
import type { SetupChecklistService } from "./setup-checklist.service";

const tags = ["setup checklist"];
const admin = requireRole("admin");

/** The dashboard's first steps for a new portal, each administrator dismissing it for themselves. */
export function registerSetupChecklistRoutes(
  parent: FastifyInstance,
  deps: { setupChecklist: SetupChecklistService },
) {
  const { setupChecklist } = deps;
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/admin/setup-checklist",
    { schema: { tags, response: { 200: setupChecklistSchema } }, preValidation: admin },
    async (request) => setupChecklist.checklist(sessionOf(request).user.id),
  );

  app.post(
    "/api/admin/setup-checklist/dismiss",
    {
      schema: {
        tags,
        response: { 204: emptyAnswer("Put away: the dashboard no longer shows it") },
      },
      preValidation: admin,
    },
    async (request, reply) => {
      await setupChecklist.dismiss(sessionOf(request).user.id);
      return reply.code(204).send(null);
    },
  );
}
