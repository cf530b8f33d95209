import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  FORM_STEPS,
  type FormStepAnswersList,
  formStepAnswersBodySchema,
  formStepAnswersListSchema,
  formStepAnswersQuerySchema,
  formStepKeySchema,
  formStepSchema,
  formStepSettingsBodySchema,
  LIKERT_LABELS,
  messageSchema,
} from "../../../contract";
import { csvRow, sendCsvDownload } from "../../lib/csv";
import { errorResponses, jsonOrCsvAnswer, STEP_REFUSALS } from "../../openapi/responses";
import { actorOf, requireRole, requireUser, sessionOf } from "../../plugins/sessions";
import type { FormStepsService } from "./form-steps.service";

const tags = ["form steps"];
const admin = requireRole("admin");
const stepParams = z.object({ id: z.string().min(1).max(64), step: formStepKeySchema });

/** One row per learner: who, when, and each item's answer (a rating with its words). */
function* answerCsvLines(list: FormStepAnswersList): Generator<string> {
  yield csvRow(["Learner", "Email", "Answered", ...list.items.map((item) => item.text)]);
  for (const row of list.answers) {
    const byItem = new Map(row.answers.map((a) => [a.itemId, a.value]));
    yield csvRow([
      row.learnerName,
      row.learnerEmail,
      row.answeredAt.slice(0, 10),
      ...list.items.map((item) => {
        const value = byItem.get(item.id);
        if (typeof value === "number") return `${value} (${LIKERT_LABELS[value - 1]})`;
        return value ?? "";
      }),
    ]);
  }
}

/**
 * Every form step of the contract (`/api/courses/{id}/steps/{step}`): its form and the
 * learner's answers, the administrator's settings, and every learner's answers.
 */
export function registerFormStepsRoutes(
  parent: FastifyInstance,
  deps: { formSteps: FormStepsService },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { formSteps } = deps;

  app.get(
    "/api/courses/:id/steps/:step",
    {
      schema: {
        tags,
        params: stepParams,
        response: {
          200: formStepSchema,
          ...errorResponses(["courses.not_found", "enrollments.not_enrolled"]),
        },
      },
      preValidation: requireUser,
    },
    async (request) =>
      formSteps.read(sessionOf(request).user, request.params.id, request.params.step),
  );
  app.put(
    "/api/courses/:id/steps/:step",
    {
      schema: {
        tags,
        params: stepParams,
        body: formStepSettingsBodySchema,
        response: { 200: formStepSchema, ...errorResponses(["courses.not_found"]) },
      },
      preValidation: admin,
    },
    async (request) =>
      formSteps.save(request.params.id, request.params.step, request.body, actorOf(request)),
  );
  app.post(
    "/api/courses/:id/steps/:step",
    {
      schema: {
        tags,
        params: stepParams,
        body: formStepAnswersBodySchema,
        response: {
          201: messageSchema,
          ...errorResponses([
            // The enrollments' unit of work: enrolled, the course online, the step in order.
            ...STEP_REFUSALS,
            "credit.step_out_of_order",
            "forms.not_asked",
            "forms.already_answered",
            "forms.invalid_answers",
          ]),
        },
      },
      config: { idempotent: true },
      preValidation: requireRole("learner"),
    },
    async (request, reply) => {
      const { id, step } = request.params;
      await formSteps.answer(sessionOf(request).user.id, id, step, request.body);
      return reply.code(201).send({ message: FORM_STEPS[step].thanks });
    },
  );
  app.get(
    "/api/courses/:id/steps/:step/answers",
    {
      schema: {
        tags,
        params: stepParams,
        querystring: formStepAnswersQuerySchema,
        response: {
          200: jsonOrCsvAnswer(
            "Every learner's answers as JSON, or as a CSV file (`format=csv`)",
            formStepAnswersListSchema,
          ),
          ...errorResponses(["courses.not_found"]),
        },
      },
      preValidation: admin,
    },
    async (request, reply) => {
      const { id, step } = request.params;
      const list = await formSteps.answers(sessionOf(request).user, id, step);
      if (request.query.format === "json") return list;
      return sendCsvDownload(reply, step, answerCsvLines(list));
    },
  );
}
