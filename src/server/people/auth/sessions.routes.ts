import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { activeSessionsSchema, endedSessionsSchema, sessionParamsSchema } from "../../../contract";
import { emptyAnswer, errorResponses } from "../../openapi/responses";
import { securityEvent } from "../../plugins/security-events";
import { requireUser, sessionOf } from "../../plugins/sessions";
import type { OwnSessions } from "./own-sessions";

const tags = ["auth"];

/** The signed-in user's own sessions on Profile: listed, and ended one by one or all at once. */
export function registerOwnSessionsRoutes(
  parent: FastifyInstance,
  { ownSessions }: { ownSessions: OwnSessions },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/auth/sessions",
    { schema: { tags, response: { 200: activeSessionsSchema } }, preValidation: requireUser },
    async (request) => {
      const session = sessionOf(request);
      return { sessions: await ownSessions.list(session.user.id, session.idHash) };
    },
  );

  app.delete(
    "/api/auth/sessions/:id",
    {
      schema: {
        tags,
        params: sessionParamsSchema,
        response: {
          204: emptyAnswer("Ended: the browser or device it was is signed out"),
          ...errorResponses(["auth.session_not_found", "auth.session_current"]),
        },
      },
      preValidation: requireUser,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      await ownSessions.end(session.user.id, request.params.id, session.idHash);
      securityEvent(request, "auth.sessions.ended", { userId: session.user.id });
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/api/auth/sessions/end-others",
    { schema: { tags, response: { 200: endedSessionsSchema } }, preValidation: requireUser },
    async (request) => {
      const session = sessionOf(request);
      const ended = await ownSessions.endOthers(session.user.id, session.idHash);
      securityEvent(request, "auth.sessions.ended", { userId: session.user.id });
      return { ended };
    },
  );
}
