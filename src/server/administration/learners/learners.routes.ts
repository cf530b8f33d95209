import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  LEARNER_IMPORT_MAX_CHARS,
  learnerImportCommitBodySchema,
  learnerImportPreviewBodySchema,
  learnerImportPreviewSchema,
  learnerImportResultSchema,
  learnerSummarySchema,
  messageSchema,
  NEXT_CURSOR_HEADER,
  pageQuerySchema,
  restrictResponseSchema,
} from "../../../contract";
import { sendJsonText } from "../../lib/json-text";
import { errorResponses } from "../../openapi/responses";
import type { AuthService } from "../../people";
import type { AuditService } from "../../platform";
import { securityEvent } from "../../plugins/security-events";
import { requireRole, sessionOf } from "../../plugins/sessions";
import type { LearnersService } from "./learners.service";
import type { LearnersImportService } from "./learners-import.service";

const tags = ["learners"];
const admin = requireRole("admin");
const idParams = z.object({ id: z.string().min(1).max(64) });

export function registerLearnersRoutes(
  parent: FastifyInstance,
  {
    learners,
    auth,
    audit,
    learnersImport,
  }: {
    learners: LearnersService;
    auth: AuthService;
    audit?: AuditService;
    learnersImport: LearnersImportService;
  },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.post(
    "/api/users/learners/import/preview",
    {
      schema: {
        tags,
        body: learnerImportPreviewBodySchema,
        response: {
          200: learnerImportPreviewSchema,
          ...errorResponses(["learners.invalid_file"]),
        },
      },
      preValidation: admin,
      // A 2 MB file (its JSON escaping included) is parsed and checked row by row.
      bodyLimit: LEARNER_IMPORT_MAX_CHARS + 400_000,
    },
    async (request) => learnersImport.preview({ csv: request.body.csv }),
  );

  app.post(
    "/api/users/learners/import",
    {
      schema: {
        tags,
        body: learnerImportCommitBodySchema,
        response: { 200: learnerImportResultSchema },
      },
      config: { idempotent: true },
      preValidation: admin,
      // 500 rows of at most a few hundred characters each.
      bodyLimit: 1_000_000,
    },
    async (request) => {
      const { id, role } = sessionOf(request).user;
      const result = await learnersImport.commit({ rows: request.body.rows, actor: { id, role } });
      for (const row of result.rows) {
        if (row.outcome !== "registered") continue;
        securityEvent(request, "learner.registered", {
          userId: row.userId ?? undefined,
          email: row.email,
          actorId: id,
        });
      }
      return result;
    },
  );

  app.get(
    "/api/users/learners",
    {
      schema: {
        tags,
        querystring: pageQuerySchema,
        response: {
          200: z.array(learnerSummarySchema),
          ...errorResponses(["validation.invalid_cursor"]),
        },
      },
      preValidation: admin,
    },
    async (request, reply) => {
      const { json, nextCursor } = await learners.page(request.query);
      if (nextCursor) reply.header(NEXT_CURSOR_HEADER, nextCursor);
      // Built as JSON by PostgreSQL in the response schema's shape (learners.repository.ts):
      // sent as it is, without zod parsing and re-encoding ~35 KB per page.
      return sendJsonText(reply, json);
    },
  );

  app.patch(
    "/api/users/learners/:id/restrict",
    {
      schema: {
        tags,
        params: idParams,
        response: { 200: restrictResponseSchema, ...errorResponses(["learners.not_found"]) },
      },
      preValidation: admin,
    },
    async (request) => {
      const { id, role } = sessionOf(request).user;
      const user = await auth.toggleLearnerStatus(request.params.id, async (tx, changed) => {
        await audit?.append(tx, {
          type: changed.status === "restricted" ? "learner.restricted" : "learner.unrestricted",
          actor: { id, role },
          learnerId: changed.id,
          details: { learnerName: changed.name, learnerEmail: changed.email },
        });
      });
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
    {
      schema: {
        tags,
        params: idParams,
        response: { 200: messageSchema, ...errorResponses(["learners.not_found"]) },
      },
      preValidation: admin,
    },
    async (request) => {
      const { id, role } = sessionOf(request).user;
      // The audit rows and certificates stay: they have no cascading key to the user.
      await auth.deleteLearner(request.params.id, async (tx, deleted) => {
        await audit?.append(tx, {
          type: "learner.deleted",
          actor: { id, role },
          learnerId: deleted.id,
          details: { learnerName: deleted.name, learnerEmail: deleted.email },
        });
      });
      securityEvent(request, "learner.deleted", {
        userId: request.params.id,
        actorId: sessionOf(request).user.id,
      });
      return { message: "Learner deleted" };
    },
  );
}
