import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  acknowledgeResponseSchema,
  activityBodySchema,
  activitySchema,
  attestBodySchema,
  attestResponseSchema,
  type Certificate,
  creditSettingsBodySchema,
  creditSettingsSchema,
  evaluationAnswersBodySchema,
  evaluationFormBodySchema,
  evaluationFormSchema,
  evaluationResultsQuerySchema,
  evaluationResultsSchema,
  licenceBodySchema,
  signatureBodySchema,
} from "../../../contract";
import { sendCsvDownload } from "../../lib/csv";
import { requireRole, requireUser, sessionOf } from "../../plugins/sessions";
import type { CreditService } from "./credit.service";
import { creditReportLines, evaluationCsvLines, evaluationResults } from "./credit-reports";

const tags = ["credit"];
const admin = requireRole("admin");
const learner = requireRole("learner");
const id = z.string().min(1).max(64);
const courseParams = z.object({ id });

export interface CreditRoutesDeps {
  credit: CreditService;
  /** The certificates feature: a course's valid certificates, for the credit report. */
  certificates: {
    creditedOfCourse(
      courseId: string,
    ): Promise<(Certificate & { learnerEmail: string | null; enrolledAt: string })[]>;
  };
}

/** The credit claim: activity, credit settings, licence, acknowledgement, evaluation, attestation, reports. */
export function registerCreditRoutes(parent: FastifyInstance, deps: CreditRoutesDeps) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { credit } = deps;

  app.get(
    "/api/courses/:id/activity",
    {
      schema: { tags, params: courseParams, response: { 200: activitySchema } },
      preValidation: requireUser,
    },
    async (request) => credit.activity(sessionOf(request).user, request.params.id),
  );
  app.put(
    "/api/courses/:id/activity",
    {
      schema: {
        tags,
        params: courseParams,
        body: activityBodySchema,
        response: { 200: activitySchema },
      },
      preValidation: admin,
    },
    async (request) =>
      credit.saveActivity(request.params.id, request.body, sessionOf(request).user),
  );
  app.put(
    "/api/courses/:id/credit-settings",
    {
      schema: {
        tags,
        params: courseParams,
        body: creditSettingsBodySchema,
        response: { 200: creditSettingsSchema },
      },
      preValidation: admin,
    },
    async (request) => credit.saveCreditSettings(request.params.id, request.body),
  );
  app.put(
    "/api/courses/:id/signature",
    {
      schema: {
        tags,
        params: courseParams,
        body: signatureBodySchema,
        response: { 200: creditSettingsSchema },
      },
      preValidation: admin,
    },
    async (request) => credit.saveSignature(request.params.id, request.body.dataUrl),
  );
  app.delete(
    "/api/courses/:id/signature",
    {
      schema: { tags, params: courseParams, response: { 200: creditSettingsSchema } },
      preValidation: admin,
    },
    async (request) => credit.removeSignature(request.params.id),
  );
  // Public: a certificate's verification page shows its signature to anyone holding the code.
  app.get(
    "/api/signatures/:id",
    { schema: { tags, params: courseParams } },
    async (request, reply) => {
      const signature = await credit.signature(request.params.id);
      return reply
        .type(signature.contentType)
        .header("cache-control", "public, max-age=31536000, immutable")
        .send(signature.bytes);
    },
  );

  app.get(
    "/api/profile/licence",
    { schema: { tags, response: { 200: licenceBodySchema } }, preValidation: requireUser },
    async (request) => credit.licence(sessionOf(request).user.id),
  );
  app.put(
    "/api/profile/licence",
    {
      schema: { tags, body: licenceBodySchema, response: { 200: licenceBodySchema } },
      preValidation: requireUser,
    },
    async (request) => credit.saveLicence(sessionOf(request).user, request.body),
  );

  app.post(
    "/api/courses/:id/acknowledge",
    {
      schema: { tags, params: courseParams, response: { 200: acknowledgeResponseSchema } },
      preValidation: learner,
    },
    async (request) => credit.acknowledge(sessionOf(request).user.id, request.params.id),
  );

  app.get(
    "/api/courses/:id/evaluation",
    {
      schema: { tags, params: courseParams, response: { 200: evaluationFormSchema } },
      preValidation: requireUser,
    },
    async (request) => credit.evaluationForm(sessionOf(request).user, request.params.id),
  );
  app.put(
    "/api/courses/:id/evaluation",
    {
      schema: {
        tags,
        params: courseParams,
        body: evaluationFormBodySchema,
        response: { 200: evaluationFormSchema },
      },
      preValidation: admin,
    },
    async (request) => credit.saveEvaluationForm(request.params.id, request.body),
  );
  app.post(
    "/api/courses/:id/evaluation",
    {
      schema: { tags, params: courseParams, body: evaluationAnswersBodySchema },
      preValidation: learner,
    },
    async (request, reply) => {
      await credit.submitEvaluation(sessionOf(request).user.id, request.params.id, request.body);
      return reply.code(201).send({ message: "Thank you for your evaluation." });
    },
  );
  app.get(
    "/api/courses/:id/evaluation/results",
    {
      schema: { tags, params: courseParams, querystring: evaluationResultsQuerySchema },
      preValidation: admin,
    },
    async (request, reply) => {
      const { items, responses } = await credit.responses(request.params.id);
      const results = evaluationResults(request.params.id, items, responses);
      if (request.query.format === "json") return evaluationResultsSchema.parse(results);
      return sendCsvDownload(reply, "evaluation", evaluationCsvLines(results));
    },
  );

  app.post(
    "/api/courses/:id/attest",
    {
      schema: {
        tags,
        params: courseParams,
        body: attestBodySchema,
        response: { 200: attestResponseSchema },
      },
      preValidation: learner,
    },
    async (request) =>
      credit.attest(sessionOf(request).user.id, request.params.id, request.body, {
        ip: request.ip,
        userAgent: request.headers["user-agent"]?.slice(0, 500) ?? null,
      }),
  );

  app.get(
    "/api/courses/:id/credit-report",
    { schema: { tags, params: courseParams }, preValidation: admin },
    async (request, reply) => {
      // Resolves the course first, so an unknown one is a 404, not an empty file.
      await credit.course(request.params.id);
      const certificates = await deps.certificates.creditedOfCourse(request.params.id);
      return sendCsvDownload(reply, "credit-report", creditReportLines(certificates));
    },
  );
}
