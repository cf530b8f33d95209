import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  courseCreditBodySchema,
  coursePublishChecksSchema,
  courseSchema,
  courseSettingsBodySchema,
  createCourseBodySchema,
  messageSchema,
  moduleEditBodySchema,
  moduleIdSchema,
  moduleRequestBodySchema,
  moduleSchema,
  publishQuerySchema,
  reorderModulesBodySchema,
  updateCourseBodySchema,
} from "../../../contract";
import { sendJsonText } from "../../lib/json-text";
import { errorResponses } from "../../openapi/responses";
import { actorOf, requireRole, requireUser, sessionOf } from "../../plugins/sessions";
import type { LearnerEnrollments } from "./course-catalogue";
import type { CoursesService } from "./courses.service";

const tags = ["courses"];
const courseParams = z.object({ id: z.string().min(1).max(64) });
const moduleParams = courseParams.extend({ moduleId: moduleIdSchema });
const admin = requireRole("admin");
/** Every way a package module's package can be refused (packages.errors.ts). */
const PACKAGE_REFUSALS = [
  "modules.package_not_uploaded",
  "modules.package_not_zip",
  "modules.package_no_manifest",
  "modules.package_manifest_in_folder",
  "modules.package_aicc",
  "modules.package_no_organization",
  "modules.package_unknown_version",
  "modules.package_nothing_to_launch",
  "modules.package_launch_missing",
  "modules.package_unsafe_path",
  "modules.package_too_many_files",
  "modules.package_too_large",
  "modules.package_invalid_manifest",
  "modules.package_unreadable",
  "modules.package_kind_mismatch",
] as const;

export function registerCoursesRoutes(
  parent: FastifyInstance,
  {
    courses,
    enrolled,
  }: {
    courses: CoursesService;
    /** The learning context's enrollments: a learner's catalogue is the courses they take. */
    enrolled: LearnerEnrollments;
  },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/courses",
    { schema: { tags, response: { 200: z.array(courseSchema) } }, preValidation: requireUser },
    async (request) => courses.list(sessionOf(request).user, enrolled),
  );

  app.get(
    "/api/courses/:id",
    {
      schema: {
        tags,
        params: courseParams,
        response: { 200: courseSchema, ...errorResponses(["courses.not_found"]) },
      },
      preValidation: requireUser,
    },
    // The cached course's JSON, made once per change, not re-serialized per request.
    async (request, reply) =>
      sendJsonText(
        reply,
        (await courses.get(request.params.id, sessionOf(request).user, enrolled)).json,
      ),
  );

  app.post(
    "/api/courses",
    {
      schema: {
        tags,
        body: createCourseBodySchema,
        response: { 201: courseSchema, ...errorResponses(["courses.thumbnail_not_uploaded"]) },
      },
      config: { idempotent: true },
      preValidation: admin,
    },
    async (request, reply) => {
      const course = await courses.create(request.body, actorOf(request));
      return reply.code(201).send(course);
    },
  );

  app.put(
    "/api/courses/:id",
    {
      schema: {
        tags,
        params: courseParams,
        body: updateCourseBodySchema,
        response: {
          200: courseSchema,
          ...errorResponses([
            "courses.not_found",
            "courses.thumbnail_not_uploaded",
            "courses.thumbnail_changed",
          ]),
        },
      },
      preValidation: admin,
    },
    async (request) => courses.update(request.params.id, request.body, actorOf(request)),
  );

  app.delete(
    "/api/courses/:id",
    {
      schema: {
        tags,
        params: courseParams,
        response: { 200: messageSchema, ...errorResponses(["courses.not_found"]) },
      },
      preValidation: admin,
    },
    async (request) => {
      await courses.remove(request.params.id, actorOf(request));
      return { message: "Course deleted" };
    },
  );

  app.patch(
    "/api/courses/:id/publish",
    {
      schema: {
        tags,
        params: courseParams,
        // The body stays empty (SPEC section 7); a confirmation travels in the address.
        querystring: publishQuerySchema,
        response: {
          200: courseSchema,
          ...errorResponses([
            "courses.not_found",
            "courses.publish_needs_modules",
            // A credit course completed manually: publishing needs ?confirm=manual-completion.
            "courses.publish_needs_confirmation",
            // Fields of study that do not add up to the credit a type needs them for.
            "courses.publish_blocked",
            // The exam must be able to draw its questions (assessments' publish check).
            "exam.not_enough_questions",
            // Credit reported to a regulator needs its identifiers and the attestation.
            "reporting.activity_id_missing",
            "reporting.attestation_required",
          ]),
        },
      },
      preValidation: admin,
    },
    async (request) => courses.publish(request.params.id, actorOf(request), request.query),
  );

  // What publishing should make the administrator aware of, shown beside 'Publish Course'.
  app.get(
    "/api/courses/:id/publish-checks",
    {
      schema: {
        tags,
        params: courseParams,
        response: {
          200: coursePublishChecksSchema,
          ...errorResponses(["courses.not_found"]),
        },
      },
      preValidation: admin,
    },
    async (request) => ({ checks: await courses.publishReview(request.params.id) }),
  );

  // Back to draft: learners keep their records but cannot open the course meanwhile.
  app.patch(
    "/api/courses/:id/unpublish",
    {
      schema: {
        tags,
        params: courseParams,
        response: {
          200: courseSchema,
          ...errorResponses(["courses.not_found", "courses.not_published"]),
        },
      },
      preValidation: admin,
    },
    async (request) => courses.unpublish(request.params.id, actorOf(request)),
  );

  app.put(
    "/api/courses/:id/modules/order",
    {
      schema: {
        tags,
        params: courseParams,
        body: reorderModulesBodySchema,
        response: {
          200: courseSchema,
          ...errorResponses(["courses.not_found", "courses.order_mismatch"]),
        },
      },
      preValidation: admin,
    },
    async (request) =>
      courses.reorderModules(request.params.id, request.body.moduleIds, actorOf(request)),
  );

  // The credit types the course offers, with their bodies: the whole offer at once.
  app.put(
    "/api/courses/:id/credit",
    {
      schema: {
        tags,
        params: courseParams,
        body: courseCreditBodySchema,
        response: {
          200: courseSchema,
          ...errorResponses([
            "courses.not_found",
            "courses.credit_type_not_found",
            "courses.publish_blocked",
          ]),
        },
      },
      preValidation: admin,
    },
    async (request) => courses.saveCredit(request.params.id, request.body, actorOf(request)),
  );

  // Completion rule, partial updates allowed.
  app.patch(
    "/api/courses/:id/settings",
    {
      schema: {
        tags,
        params: courseParams,
        body: courseSettingsBodySchema,
        response: { 200: courseSchema, ...errorResponses(["courses.not_found"]) },
      },
      preValidation: admin,
    },
    async (request) => courses.updateSettings(request.params.id, request.body, actorOf(request)),
  );

  app.post(
    "/api/courses/:id/modules",
    {
      schema: {
        tags,
        params: courseParams,
        // The spec's module form, with `kind`: a video (the default), or a SCORM or cmi5
        // package whose `.zip` is checked whole before the module is saved.
        body: moduleRequestBodySchema,
        response: {
          201: moduleSchema,
          ...errorResponses([
            "courses.not_found",
            "courses.video_not_uploaded",
            "courses.module_id_taken",
            ...PACKAGE_REFUSALS,
          ]),
        },
      },
      config: { idempotent: true },
      preValidation: admin,
    },
    async (request, reply) => {
      const module = await courses.addModule(request.params.id, request.body, actorOf(request));
      return reply.code(201).send(module);
    },
  );

  app.put(
    "/api/courses/:id/modules/:moduleId",
    {
      schema: {
        tags,
        params: moduleParams,
        body: moduleEditBodySchema,
        response: {
          200: moduleSchema,
          ...errorResponses([
            "courses.not_found",
            "courses.module_not_found",
            "courses.video_not_uploaded",
            "courses.module_changed",
            ...PACKAGE_REFUSALS,
          ]),
        },
      },
      preValidation: admin,
    },
    async (request) =>
      courses.updateModule(
        request.params.id,
        request.params.moduleId,
        request.body,
        actorOf(request),
      ),
  );

  app.delete(
    "/api/courses/:id/modules/:moduleId",
    {
      schema: {
        tags,
        params: moduleParams,
        response: {
          200: messageSchema,
          ...errorResponses([
            "courses.not_found",
            "courses.module_not_found",
            "courses.published_needs_modules",
          ]),
        },
      },
      preValidation: admin,
    },
    async (request) => {
      await courses.removeModule(request.params.id, request.params.moduleId, actorOf(request));
      return { message: "Module deleted" };
    },
  );
}
