import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  evaluationAnswersBodySchema,
  evaluationFormBodySchema,
  evaluationFormSchema,
  evaluationResultsQuerySchema,
  evaluationResultsSchema,
  messageSchema,
} from "../../../contract";
import { sendCsvDownload } from "../../lib/csv";
import { errorResponses, jsonOrCsvAnswer, STEP_REFUSALS } from "../../openapi/responses";
import { actorOf, requireRole, requireUser, sessionOf } from "../../plugins/sessions";
import { evaluationCsvLines, evaluationResults } from "./evaluation-results";
import type { EvaluationsService } from "./evaluations.service";

const tags = ["evaluations"];
const admin = requireRole("admin");
const courseParams = z.object({ id: z.string().min(1).max(64) });

/** The evaluation: its form (administrators), its submission (learners) and its results. */
export function registerEvaluationsRoutes(
  parent: FastifyInstance,
  deps: { evaluations: EvaluationsService },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { evaluations } = deps;

  app.get(
    "/api/courses/:id/evaluation",
    {
      schema: {
        tags,
        params: courseParams,
        response: {
          200: evaluationFormSchema,
          ...errorResponses(["courses.not_found", "enrollments.not_enrolled"]),
        },
      },
      preValidation: requireUser,
    },
    async (request) => evaluations.evaluationForm(sessionOf(request).user, request.params.id),
  );
  app.put(
    "/api/courses/:id/evaluation",
    {
      schema: {
        tags,
        params: courseParams,
        body: evaluationFormBodySchema,
        response: { 200: evaluationFormSchema, ...errorResponses(["courses.not_found"]) },
      },
      preValidation: admin,
    },
    async (request) =>
      evaluations.saveEvaluationForm(request.params.id, request.body, actorOf(request)),
  );
  app.post(
    "/api/courses/:id/evaluation",
    {
      schema: {
        tags,
        params: courseParams,
        body: evaluationAnswersBodySchema,
        response: {
          201: messageSchema,
          ...errorResponses([
            // The enrollments' unit of work: enrolled, the course online, the step in order.
            ...STEP_REFUSALS,
            "credit.step_out_of_order",
            "evaluation.already_submitted",
            "evaluation.not_asked",
            "evaluation.invalid_answers",
          ]),
        },
      },
      // The answers are anonymous: no trace of them is kept with the learner's key.
      config: { idempotent: "without-body" },
      preValidation: requireRole("learner"),
    },
    async (request, reply) => {
      await evaluations.submitEvaluation(
        sessionOf(request).user.id,
        request.params.id,
        request.body,
      );
      return reply.code(201).send({ message: "Thank you for your evaluation." });
    },
  );
  app.get(
    "/api/courses/:id/evaluation/results",
    {
      schema: {
        tags,
        params: courseParams,
        querystring: evaluationResultsQuerySchema,
        response: {
          200: jsonOrCsvAnswer(
            "The results as JSON, or as a CSV file (`format=csv`)",
            evaluationResultsSchema,
          ),
          ...errorResponses(["courses.not_found"]),
        },
      },
      preValidation: admin,
    },
    async (request, reply) => {
      const { items, responses } = await evaluations.responses(
        sessionOf(request).user,
        request.params.id,
      );
      const results = evaluationResults(request.params.id, items, responses);
      if (request.query.format === "json") return evaluationResultsSchema.parse(results);
      return sendCsvDownload(reply, "evaluation", evaluationCsvLines(results));
    },
  );
}
