import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  bulkEnrollBodySchema,
  bulkEnrollResultSchema,
  completionQuerySchema,
  completionSchema,
  createEnrollmentBodySchema,
  enrollmentWithRelationsSchema,
  messageSchema,
  NEXT_CURSOR_HEADER,
  pageQuerySchema,
  progressUpdateBodySchema,
} from "../../../contract";
import { sendJsonText } from "../../lib/json-text";
import { errorResponses, STEP_REFUSALS } from "../../openapi/responses";
import { requireRole, requireUser, sessionOf } from "../../plugins/sessions";
import { learnerRequired, notYourEnrollments, notYourProgress } from "./enrollments.errors";
import type { EnrollmentsService } from "./enrollments.service";

const tags = ["enrollments"];
const admin = requireRole("admin");
const idParams = z.object({ id: z.string().min(1).max(64) });
/** A course that takes enrollments: it exists, is published and its activity has not expired. */
const enrollableRefusals = [
  "courses.not_found",
  "enrollments.course_unpublished",
  "credit.expired",
] as const;

export function registerEnrollmentsRoutes(
  parent: FastifyInstance,
  { enrollments }: { enrollments: EnrollmentsService },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.post(
    "/api/enrollments",
    {
      schema: {
        tags,
        body: createEnrollmentBodySchema,
        response: {
          201: enrollmentWithRelationsSchema,
          ...errorResponses([
            "enrollments.not_a_learner",
            ...enrollableRefusals,
            "enrollments.already_enrolled",
          ]),
        },
      },
      config: { idempotent: true },
      preValidation: admin,
    },
    async (request, reply) => {
      const { id, role } = sessionOf(request).user;
      const enrollment = await enrollments.enroll({ ...request.body, actor: { id, role } });
      return reply.code(201).send(enrollment);
    },
  );

  app.post(
    "/api/enrollments/bulk",
    {
      schema: {
        tags,
        body: bulkEnrollBodySchema,
        response: {
          200: bulkEnrollResultSchema,
          ...errorResponses(["enrollments.not_learners", ...enrollableRefusals]),
        },
      },
      // A repeat answers with the first report, not one that calls everyone already enrolled.
      config: { idempotent: true },
      preValidation: admin,
    },
    async (request) => {
      const { id, role } = sessionOf(request).user;
      return enrollments.enrollMany({ ...request.body, actor: { id, role } });
    },
  );

  app.get(
    "/api/enrollments",
    {
      schema: {
        tags,
        querystring: pageQuerySchema,
        response: {
          200: z.array(enrollmentWithRelationsSchema),
          ...errorResponses(["validation.invalid_cursor"]),
        },
      },
      preValidation: admin,
    },
    async (request, reply) => {
      const { json, nextCursor } = await enrollments.pageJson(request.query);
      if (nextCursor) reply.header(NEXT_CURSOR_HEADER, nextCursor);
      // JSON made from the catalogue's cached course JSON (enrollment-reads.ts).
      return sendJsonText(reply, json);
    },
  );

  app.delete(
    "/api/enrollments/:id",
    {
      schema: {
        tags,
        params: idParams,
        response: { 200: messageSchema, ...errorResponses(["enrollments.not_found"]) },
      },
      preValidation: admin,
    },
    async (request) => {
      const { id, role } = sessionOf(request).user;
      await enrollments.remove(request.params.id, { id, role });
      return { message: "Enrollment removed" };
    },
  );

  app.get(
    "/api/enrollments/user/:userId",
    {
      schema: {
        tags,
        params: z.object({ userId: z.string().min(1).max(64) }),
        response: {
          200: z.array(enrollmentWithRelationsSchema),
          ...errorResponses(["enrollments.not_your_enrollments"]),
        },
      },
      preValidation: requireUser,
    },
    async (request, reply) => {
      const { user } = sessionOf(request);
      if (user.role !== "admin" && user.id !== request.params.userId) throw notYourEnrollments();
      // JSON made from the catalogue's cached course JSON (enrollment-reads.ts).
      return sendJsonText(reply, await enrollments.listForUserJson(request.params.userId, user));
    },
  );

  app.post(
    "/api/progress/update",
    {
      schema: {
        tags,
        body: progressUpdateBodySchema,
        response: {
          200: enrollmentWithRelationsSchema,
          ...errorResponses([
            "enrollments.not_your_progress",
            // The unit of work: enrolled, the course online, the steps before the modules done.
            ...STEP_REFUSALS,
            "credit.acknowledge_first",
            "courses.module_not_found",
            "courses.module_locked",
            // The modules step's own rules: review questions answered, the video watched,
            // a package module left to its content.
            "review.answer_first",
            "watching.not_watched_enough",
            "watching.not_seated_enough",
            "modules.package_reports_completion",
            "modules.package_seat_time",
          ]),
        },
      },
      preValidation: requireRole("learner"),
    },
    async (request, reply) => {
      const { user } = sessionOf(request);
      if (request.body.userId !== user.id) throw notYourProgress();
      const json = await enrollments.completeModule({
        user,
        userId: user.id,
        courseId: request.body.courseId,
        moduleId: request.body.moduleId,
      });
      return sendJsonText(reply, json);
    },
  );

  app.get(
    "/api/courses/:id/completion",
    {
      schema: {
        tags,
        params: idParams,
        querystring: completionQuerySchema,
        response: {
          200: completionSchema,
          ...errorResponses([
            "enrollments.learner_required",
            "enrollments.not_your_enrollments",
            "enrollments.not_enrolled",
          ]),
        },
      },
      preValidation: requireUser,
    },
    async (request) => {
      const { user } = sessionOf(request);
      // Administrators ask about a learner; a learner only about themselves.
      const userId = user.role === "admin" ? request.query.userId : user.id;
      if (!userId) throw learnerRequired();
      if (user.role === "learner" && request.query.userId && request.query.userId !== user.id) {
        throw notYourEnrollments();
      }
      return enrollments.completion(userId, request.params.id);
    },
  );
}
