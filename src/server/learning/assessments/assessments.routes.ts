import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  answersBodySchema,
  attemptResultSchema,
  attemptSchema,
  examResultsQuerySchema,
  examResultsSchema,
  examSettingsBodySchema,
  examSettingsSchema,
  examStatusSchema,
  messageSchema,
  moduleIdSchema,
  questionBodySchema,
  questionImportBodySchema,
  questionImportResultSchema,
  questionOrderBodySchema,
  questionSchema,
  reviewResultSchema,
  reviewSchema,
  submitResultSchema,
} from "../../../contract";
import { sendCsvDownload } from "../../lib/csv";
import { errorResponses, jsonOrCsvAnswer, STEP_REFUSALS } from "../../openapi/responses";
import { actorOf, requireRole, sessionOf } from "../../plugins/sessions";
import type { ExamService } from "./exam.service";
import type { ExamResultsService } from "./exam-results";
import type { QuestionsService } from "./questions.service";
import type { ReviewService } from "./review.service";

const tags = ["assessments"];
const admin = requireRole("admin");
const learner = requireRole("learner");
const id = z.string().min(1).max(64);
const courseParams = z.object({ id });
const questionParams = z.object({ id, questionId: id });
const moduleParams = z.object({ id, moduleId: moduleIdSchema });
const attemptParams = z.object({ attemptId: id });
/**
 * Answers naming questions the attempt or the module did not show, answering one twice, or
 * giving several options to a one-answer question.
 */
const answerRefusals = [
  "exam.question_not_presented",
  "exam.question_answered_twice",
  "exam.one_option_only",
] as const;
/** A learner's own attempt, in progress. */
const attemptRefusals = [
  "exam.attempt_not_found",
  "exam.not_your_attempt",
  "exam.attempt_submitted",
  "credit.step_out_of_order",
] as const;

export interface AssessmentsRoutesDeps {
  questions: QuestionsService;
  review: ReviewService;
  exam: ExamService;
  results: ExamResultsService;
}

/** Question bank, exam settings, review questions, exam attempts and results. */
export function registerAssessmentsRoutes(parent: FastifyInstance, deps: AssessmentsRoutesDeps) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { questions, review, exam, results } = deps;

  // The question bank (administrators).
  app.get(
    "/api/courses/:id/questions",
    {
      schema: {
        tags,
        params: courseParams,
        response: { 200: z.array(questionSchema), ...errorResponses(["courses.not_found"]) },
      },
      preValidation: admin,
    },
    async (request) => questions.list(request.params.id),
  );
  app.post(
    "/api/courses/:id/questions",
    {
      schema: {
        tags,
        params: courseParams,
        body: questionBodySchema,
        response: {
          201: questionSchema,
          ...errorResponses([
            "courses.not_found",
            "questions.unknown_module",
            "questions.too_many",
          ]),
        },
      },
      config: { idempotent: true },
      preValidation: admin,
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await questions.create(request.params.id, request.body, actorOf(request))),
  );
  // Registered before the one-question routes so "order" and "import" are never ids.
  app.put(
    "/api/courses/:id/questions/order",
    {
      schema: {
        tags,
        params: courseParams,
        body: questionOrderBodySchema,
        response: {
          200: z.array(questionSchema),
          ...errorResponses(["courses.not_found", "questions.order_mismatch"]),
        },
      },
      preValidation: admin,
    },
    async (request) =>
      questions.reorder(request.params.id, request.body.questionIds, actorOf(request)),
  );
  app.post(
    "/api/courses/:id/questions/import",
    {
      schema: {
        tags,
        params: courseParams,
        body: questionImportBodySchema,
        response: {
          200: questionImportResultSchema,
          ...errorResponses(["courses.not_found", "questions.too_many"]),
        },
      },
      preValidation: admin,
      // A 2 MB file is parsed and checked row by row.
      bodyLimit: 2_200_000,
    },
    async (request) =>
      questions.importCsv(
        request.params.id,
        request.body.csv,
        request.body.dryRun,
        actorOf(request),
      ),
  );
  app.put(
    "/api/courses/:id/questions/:questionId",
    {
      schema: {
        tags,
        params: questionParams,
        body: questionBodySchema,
        response: {
          200: questionSchema,
          ...errorResponses([
            "courses.not_found",
            "questions.not_found",
            "questions.unknown_module",
            "exam.not_enough_questions",
          ]),
        },
      },
      preValidation: admin,
    },
    async (request) =>
      questions.update(
        request.params.id,
        request.params.questionId,
        request.body,
        actorOf(request),
      ),
  );
  app.delete(
    "/api/courses/:id/questions/:questionId",
    {
      schema: {
        tags,
        params: questionParams,
        response: {
          200: messageSchema,
          ...errorResponses([
            "courses.not_found",
            "questions.not_found",
            "exam.not_enough_questions",
          ]),
        },
      },
      preValidation: admin,
    },
    async (request) => {
      await questions.remove(request.params.id, request.params.questionId, actorOf(request));
      return { message: "Question deleted." };
    },
  );

  app.get(
    "/api/courses/:id/exam-settings",
    {
      schema: {
        tags,
        params: courseParams,
        response: { 200: examSettingsSchema, ...errorResponses(["courses.not_found"]) },
      },
      preValidation: admin,
    },
    async (request) => questions.settings(request.params.id),
  );
  app.put(
    "/api/courses/:id/exam-settings",
    {
      schema: {
        tags,
        params: courseParams,
        body: examSettingsBodySchema,
        response: {
          200: examSettingsSchema,
          ...errorResponses(["courses.not_found", "exam.not_enough_questions"]),
        },
      },
      preValidation: admin,
    },
    async (request) => questions.saveSettings(request.params.id, request.body, actorOf(request)),
  );

  // Review questions (learners).
  app.get(
    "/api/courses/:id/modules/:moduleId/review",
    {
      schema: {
        tags,
        params: moduleParams,
        response: {
          200: reviewSchema,
          ...errorResponses([
            "enrollments.not_enrolled",
            "courses.module_not_found",
            "courses.module_locked",
          ]),
        },
      },
      preValidation: learner,
    },
    async (request) =>
      review.get(sessionOf(request).user.id, request.params.id, request.params.moduleId),
  );
  app.post(
    "/api/courses/:id/modules/:moduleId/review",
    {
      schema: {
        tags,
        params: moduleParams,
        body: answersBodySchema,
        response: {
          200: reviewResultSchema,
          ...errorResponses([
            ...STEP_REFUSALS,
            "credit.acknowledge_first",
            "courses.module_not_found",
            "courses.module_locked",
            "review.choice_required",
            ...answerRefusals,
          ]),
        },
      },
      preValidation: learner,
    },
    async (request) =>
      review.answer(
        sessionOf(request).user.id,
        request.params.id,
        request.params.moduleId,
        request.body.answers,
      ),
  );

  // The final exam (learners).
  app.get(
    "/api/courses/:id/exam",
    {
      schema: {
        tags,
        params: courseParams,
        response: { 200: examStatusSchema, ...errorResponses(["enrollments.not_enrolled"]) },
      },
      preValidation: learner,
    },
    async (request) => exam.status(sessionOf(request).user.id, request.params.id),
  );
  app.post(
    "/api/courses/:id/exam/attempts",
    {
      schema: {
        tags,
        params: courseParams,
        response: {
          200: attemptSchema,
          201: attemptSchema,
          ...errorResponses([
            ...STEP_REFUSALS,
            "credit.step_out_of_order",
            "exam.disabled",
            "exam.already_passed",
            "exam.not_open",
            "exam.no_attempts_left",
            "exam.not_enough_questions",
          ]),
        },
      },
      preValidation: learner,
    },
    async (request, reply) => {
      const { attempt, created } = await exam.start(sessionOf(request).user, request.params.id);
      return reply.code(created ? 201 : 200).send(attempt);
    },
  );
  app.get(
    "/api/exam-attempts/:attemptId",
    {
      schema: {
        tags,
        params: attemptParams,
        response: {
          200: attemptResultSchema,
          ...errorResponses(["exam.attempt_not_found", "exam.not_your_attempt", "exam.not_graded"]),
        },
      },
      preValidation: learner,
    },
    async (request) => exam.result(sessionOf(request).user.id, request.params.attemptId),
  );
  app.put(
    "/api/exam-attempts/:attemptId/answers",
    {
      schema: {
        tags,
        params: attemptParams,
        body: answersBodySchema,
        response: {
          200: messageSchema,
          ...errorResponses([
            ...STEP_REFUSALS,
            ...attemptRefusals,
            "exam.deadline_passed",
            ...answerRefusals,
          ]),
        },
      },
      preValidation: learner,
    },
    async (request) => {
      await exam.saveAnswers(
        sessionOf(request).user.id,
        request.params.attemptId,
        request.body.answers,
      );
      return { message: "Answers saved." };
    },
  );
  app.post(
    "/api/exam-attempts/:attemptId/submit",
    {
      schema: {
        tags,
        params: attemptParams,
        body: answersBodySchema,
        response: {
          200: submitResultSchema,
          ...errorResponses([...STEP_REFUSALS, ...attemptRefusals, ...answerRefusals]),
        },
      },
      preValidation: learner,
    },
    async (request) =>
      exam.submit(sessionOf(request).user.id, request.params.attemptId, request.body.answers),
  );

  // Administrators: extra attempts and results.
  app.post(
    "/api/enrollments/:id/exam/extra-attempt",
    {
      schema: {
        tags,
        params: courseParams,
        response: { 200: messageSchema, ...errorResponses(["enrollments.not_found"]) },
      },
      preValidation: admin,
    },
    async (request) => {
      await exam.grantExtraAttempt(request.params.id, sessionOf(request).user);
      return { message: "One more attempt granted." };
    },
  );
  app.get(
    "/api/courses/:id/exam/results",
    {
      schema: {
        tags,
        params: courseParams,
        querystring: examResultsQuerySchema,
        response: {
          200: jsonOrCsvAnswer(
            "The results as JSON, or as a CSV file (`format=csv`)",
            examResultsSchema,
          ),
          ...errorResponses(["courses.not_found"]),
        },
      },
      preValidation: admin,
      config: { expensive: true },
    },
    async (request, reply) => {
      const { format, view } = request.query;
      if (format === "json") {
        return examResultsSchema.parse(await results.results(request.params.id));
      }
      // Resolved before the first byte, so an unknown course is a 404, not a broken file.
      const lines = results.csv(request.params.id, view);
      const first = await lines.next();
      return sendCsvDownload(
        reply,
        `exam-${view}`,
        (async function* () {
          if (!first.done) yield first.value;
          yield* lines;
        })(),
      );
    },
  );
}
