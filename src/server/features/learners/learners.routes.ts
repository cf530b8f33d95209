import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  learnerSummarySchema,
  messageSchema,
  NEXT_CURSOR_HEADER,
  pageQuerySchema,
  restrictResponseSchema,
} from "../../../contract";
import { securityEvent } from "../../plugins/security-events";
import { requireRole, sessionOf } from "../../plugins/sessions";
import type { AuthService } from "../auth/auth.service";
import type { LearnersService } from "./learners.service";

const tags = ["learners"];
const admin = requireRole("admin");
const idParams = z.object({ id: z.string().min(1).max(64) });

export function registerLearnersRoutes(
  parent: FastifyInstance,
  { learners, auth }: { learners: LearnersService; auth: AuthService },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/users/learners",
    {
      schema: {
        tags,
        querystring: pageQuerySchema,
        response: { 200: z.array(learnerSummarySchema) },
      },
      preValidation: admin,
    },
    async (request, reply) => {
      const { items, nextCursor } = await learners.page(request.query);
      if (nextCursor) reply.header(NEXT_CURSOR_HEADER, nextCursor);
      return items;
    },
  );

  app.patch(
    "/api/users/learners/:id/restrict",
    {
      schema: { tags, params: idParams, response: { 200: restrictResponseSchema } },
      preValidation: admin,
    },
    async (request) => {
      const user = await auth.toggleLearnerStatus(request.params.id);
      securityEvent(
        request,
        user.status === "restricted" ? "learner.restricted" : "learner.unrestricted",
        { userId: user.id, actorId: sessionOf(request).user.id },
      );
      return {
        status: user.status,
        message:
          user.status === "restricted"
            ? `${user.name} has been restricted and signed out.`
            : `${user.name} can sign in again.`,
      };
    },
  );

  app.delete(
    "/api/users/learners/:id",
    { schema: { tags, params: idParams, response: { 200: messageSchema } }, preValidation: admin },
    async (request) => {
      await auth.deleteLearner(request.params.id);
      securityEvent(request, "learner.deleted", {
        userId: request.params.id,
        actorId: sessionOf(request).user.id,
      });
      return { message: "Learner deleted" };
    },
  );
}
