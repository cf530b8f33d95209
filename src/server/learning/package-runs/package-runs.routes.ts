import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  moduleIdSchema,
  PACKAGE_ITEM_ID_MAX,
  packageAttemptStatusSchema,
  packageLaunchSchema,
  packagePreviewSchema,
  packageSeatBodySchema,
  scormCommitBodySchema,
  scormItemAnswerSchema,
} from "../../../contract";
import { errorResponses } from "../../openapi/responses";
import { requireRole, sessionOf } from "../../plugins/sessions";
import type { PackageRunsService } from "./package-runs.service";

const tags = ["package runs"];
const moduleParams = z.object({ courseId: z.string().min(1).max(64), moduleId: moduleIdSchema });
const itemParams = moduleParams.extend({ itemId: z.string().min(1).max(PACKAGE_ITEM_ID_MAX) });
/** Every refusal of a learner's run: the spec's progress refusals, and a module without a package. */
const RUN_REFUSALS = [
  "courses.not_found",
  "enrollments.not_enrolled",
  "courses.module_not_found",
  "courses.module_locked",
  "modules.not_a_package",
] as const;

/**
 * A SCO commits when it asks and a few seconds after each change; a player beats every 15 s.
 * Counted per signed-in session, as the video's heartbeats are.
 */
const runLimit = (name: string, max: number) => ({
  rateLimit: {
    max,
    timeWindow: "1 minute",
    hook: "preHandler" as const,
    keyGenerator: (request: FastifyRequest) => `${name}:${sessionOf(request).idHash}`,
  },
});

export function registerPackageRunsRoutes(
  parent: FastifyInstance,
  { packageRuns }: { packageRuns: PackageRunsService },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const learner = (request: FastifyRequest) => {
    const { user } = sessionOf(request);
    return { id: user.id, name: user.name };
  };

  app.get(
    "/api/courses/:courseId/modules/:moduleId/package/preview",
    {
      schema: {
        tags,
        params: moduleParams,
        response: {
          200: packagePreviewSchema,
          ...errorResponses([
            "courses.not_found",
            "courses.module_not_found",
            "modules.not_a_package",
          ]),
        },
      },
      preValidation: requireRole("admin"),
    },
    async (request) => packageRuns.preview({ ...request.params, viewer: learner(request) }),
  );

  app.post(
    "/api/courses/:courseId/modules/:moduleId/package/launch",
    {
      schema: {
        tags,
        params: moduleParams,
        response: { 200: packageLaunchSchema, ...errorResponses([...RUN_REFUSALS]) },
      },
      preValidation: requireRole("learner"),
    },
    async (request) =>
      packageRuns.launch({
        ...request.params,
        userId: sessionOf(request).user.id,
        learner: learner(request),
      }),
  );

  app.get(
    "/api/courses/:courseId/modules/:moduleId/package/items/:itemId",
    {
      schema: {
        tags,
        params: itemParams,
        response: {
          200: scormItemAnswerSchema,
          ...errorResponses([...RUN_REFUSALS, "modules.package_item_not_found"]),
        },
      },
      preValidation: requireRole("learner"),
    },
    async (request) =>
      packageRuns.item({
        ...request.params,
        userId: sessionOf(request).user.id,
        learner: learner(request),
      }),
  );

  app.put(
    "/api/courses/:courseId/modules/:moduleId/package/items/:itemId",
    {
      schema: {
        tags,
        params: itemParams,
        body: scormCommitBodySchema,
        response: {
          200: packageAttemptStatusSchema,
          ...errorResponses([
            ...RUN_REFUSALS,
            "modules.package_item_not_found",
            "modules.package_data_invalid",
            "modules.package_attempt_ended",
          ]),
        },
      },
      preValidation: requireRole("learner"),
      config: runLimit("package-commit", 240),
    },
    async (request) =>
      packageRuns.commit({
        ...request.params,
        userId: sessionOf(request).user.id,
        body: request.body,
      }),
  );

  app.post(
    "/api/courses/:courseId/modules/:moduleId/package/seat",
    {
      schema: {
        tags,
        params: moduleParams,
        body: packageSeatBodySchema,
        response: {
          200: packageAttemptStatusSchema,
          ...errorResponses([...RUN_REFUSALS, "modules.package_attempt_ended"]),
        },
      },
      preValidation: requireRole("learner"),
      config: runLimit("package-seat", 60),
    },
    async (request) =>
      packageRuns.seat({
        ...request.params,
        userId: sessionOf(request).user.id,
        visible: request.body.visible,
        attemptId: request.body.attemptId,
      }),
  );
}
