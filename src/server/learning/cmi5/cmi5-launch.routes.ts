import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  cmi5LaunchBodySchema,
  cmi5LaunchSchema,
  cmi5StatementResultSchema,
  cmi5StatementsQuerySchema,
  cmi5StatusSchema,
  cmi5WaiveBodySchema,
} from "../../../contract";
import { errorResponses } from "../../openapi/responses";
import { requireRole, sessionOf } from "../../plugins/sessions";
import type { Cmi5Service } from "./cmi5.service";

const tags = ["cmi5"];
const id = z.string().min(1).max(64);
const moduleParams = z.object({ courseId: id, moduleId: id });

/**
 * The portal's side of a cmi5 module: a learner launches its AUs and reads where each
 * stands; an administrator waives an AU and reads a registration's statements. What the
 * AUs send goes to the content origin (cmi5.routes.ts).
 */
export function registerCmi5LaunchRoutes(parent: FastifyInstance, { cmi5 }: { cmi5: Cmi5Service }) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.post(
    "/api/courses/:courseId/modules/:moduleId/cmi5/launch",
    {
      schema: {
        tags,
        params: moduleParams,
        body: cmi5LaunchBodySchema,
        response: {
          200: cmi5LaunchSchema,
          ...errorResponses([
            "courses.not_found",
            "enrollments.not_enrolled",
            "courses.module_not_found",
            "courses.module_locked",
            "cmi5.not_cmi5_module",
            "cmi5.au_not_found",
          ]),
        },
      },
      preValidation: requireRole("learner"),
    },
    async (request) =>
      cmi5.launch({
        userId: sessionOf(request).user.id,
        portalSession: sessionOf(request).idHash,
        ...request.params,
        auId: request.body.auId,
        launchMode: request.body.launchMode,
      }),
  );

  app.get(
    "/api/courses/:courseId/modules/:moduleId/cmi5",
    {
      schema: {
        tags,
        params: moduleParams,
        response: {
          200: cmi5StatusSchema,
          ...errorResponses([
            "courses.not_found",
            "enrollments.not_enrolled",
            "courses.module_not_found",
            "cmi5.not_cmi5_module",
          ]),
        },
      },
      preValidation: requireRole("learner"),
    },
    async (request) => cmi5.status({ userId: sessionOf(request).user.id, ...request.params }),
  );

  app.post(
    "/api/courses/:courseId/modules/:moduleId/cmi5/waive",
    {
      schema: {
        tags,
        params: moduleParams,
        body: cmi5WaiveBodySchema,
        response: {
          200: cmi5StatusSchema,
          ...errorResponses([
            "courses.not_found",
            "enrollments.not_found",
            "courses.module_not_found",
            "cmi5.not_cmi5_module",
            "cmi5.au_not_found",
            "cmi5.not_launched",
            "cmi5.already_satisfied",
          ]),
        },
      },
      preValidation: requireRole("admin"),
    },
    async (request) => cmi5.waive({ ...request.params, ...request.body }),
  );

  app.get(
    "/api/admin/cmi5/statements",
    {
      schema: {
        tags,
        querystring: cmi5StatementsQuerySchema,
        response: { 200: cmi5StatementResultSchema },
      },
      preValidation: requireRole("admin"),
    },
    async (request) => {
      const q = request.query;
      return cmi5.statementsFor({
        registration: q.registration,
        verb: q.verb,
        ascending: q.ascending === "true",
        limit: q.limit,
        cursor: q.cursor,
        moreOf: (cursor) => {
          const next = new URLSearchParams({
            registration: q.registration,
            ascending: q.ascending,
            limit: String(q.limit),
            cursor: String(cursor),
            ...(q.verb ? { verb: q.verb } : {}),
          });
          return `/api/admin/cmi5/statements?${next}`;
        },
      });
    },
  );
}
