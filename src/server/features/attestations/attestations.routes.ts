import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { attestBodySchema, attestResponseSchema } from "../../../contract";
import { requireRole, sessionOf } from "../../plugins/sessions";
import type { AttestationsService } from "./attestations.service";

const tags = ["attestations"];
const courseParams = z.object({ id: z.string().min(1).max(64) });

/** The learner's attestation, with the request's origin kept beside it. */
export function registerAttestationsRoutes(
  parent: FastifyInstance,
  deps: { attestations: AttestationsService },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { attestations } = deps;

  app.post(
    "/api/courses/:id/attest",
    {
      schema: {
        tags,
        params: courseParams,
        body: attestBodySchema,
        response: { 200: attestResponseSchema },
      },
      preValidation: requireRole("learner"),
    },
    async (request) =>
      attestations.attest(sessionOf(request).user.id, request.params.id, request.body, {
        ip: request.ip,
        userAgent: request.headers["user-agent"]?.slice(0, 500) ?? null,
      }),
  );
}
