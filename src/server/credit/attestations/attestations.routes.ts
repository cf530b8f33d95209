import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { attestResponseSchema, attestWithIdentifiersBodySchema } from "../../../contract";
import { errorResponses, STEP_REFUSALS } from "../../openapi/responses";
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
        body: attestWithIdentifiersBodySchema,
        response: {
          200: attestResponseSchema,
          ...errorResponses([
            // The enrollments' unit of work: enrolled, the course online, the step in order.
            ...STEP_REFUSALS,
            "credit.step_out_of_order",
            "attestation.not_asked",
            "attestation.already_attested",
            "attestation.statement_changed",
            "attestation.claim_required",
            "attestation.claim_too_high",
            "attestation.claim_off_step",
            "attestation.no_partial_credit",
            "attestation.unknown_credit_type",
            "attestation.regulator_ids_missing",
            "attestation.reporting_consent_required",
          ]),
        },
      },
      config: { idempotent: true },
      preValidation: requireRole("learner"),
    },
    async (request) =>
      attestations.attest(sessionOf(request).user.id, request.params.id, request.body, {
        ip: request.ip,
        userAgent: request.headers["user-agent"]?.slice(0, 500) ?? null,
      }),
  );
}
