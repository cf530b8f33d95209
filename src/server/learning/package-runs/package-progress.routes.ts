import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  learnerPackageProgressSchema,
  moduleIdSchema,
  NEXT_CURSOR_HEADER,
  packageProgressQuerySchema,
  packageProgressRowSchema,
} from "../../../contract";
import { fileNamePart, sendCsvDownload } from "../../lib/csv";
import { errorResponses, jsonOrCsvAnswer } from "../../openapi/responses";
import { requireRole, sessionOf } from "../../plugins/sessions";
import type { PackageProgressService } from "./package-progress.service";

const tags = ["package progress"];
const admin = requireRole("admin");
const id = z.string().min(1).max(64);
const moduleParams = z.object({ courseId: id, moduleId: moduleIdSchema });
/** A course and one of its modules that plays a package. */
const MODULE_REFUSALS = [
  "courses.not_found",
  "courses.module_not_found",
  "attempts.not_a_package",
] as const;

export function registerPackageProgressRoutes(
  parent: FastifyInstance,
  { packageProgress }: { packageProgress: PackageProgressService },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/courses/:courseId/modules/:moduleId/package/attempts",
    {
      schema: {
        tags,
        params: moduleParams,
        querystring: packageProgressQuerySchema,
        response: {
          200: jsonOrCsvAnswer(
            "A page of the enrolled learners (the next page's cursor in x-next-cursor), or every learner as a CSV file (`format=csv`)",
            z.array(packageProgressRowSchema),
          ),
          ...errorResponses([...MODULE_REFUSALS, "validation.invalid_cursor"]),
        },
      },
      preValidation: admin,
      config: { expensive: true },
    },
    async (request, reply) => {
      const { format, limit, cursor, q, sort } = request.query;
      const { courseId, moduleId } = request.params;
      if (format === "csv") {
        const file = await packageProgress.csv({ courseId, moduleId, q, sort });
        const name = `attempts-${fileNamePart(file.course.title)}-${fileNamePart(file.module.title)}`;
        return sendCsvDownload(reply, name, file.lines);
      }
      const page = await packageProgress.page({ courseId, moduleId, limit, cursor, q, sort });
      if (page.nextCursor) reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
      return z.array(packageProgressRowSchema).parse(page.rows);
    },
  );

  app.post(
    "/api/courses/:courseId/modules/:moduleId/package/attempts/:userId/reset",
    {
      schema: {
        tags,
        params: moduleParams.extend({ userId: id }),
        response: {
          200: packageProgressRowSchema,
          ...errorResponses([
            ...MODULE_REFUSALS,
            "enrollments.not_found",
            "attempts.nothing_to_reset",
          ]),
        },
      },
      preValidation: admin,
    },
    async (request) => {
      const { id: actorId, role } = sessionOf(request).user;
      return packageProgress.reset({ ...request.params, actor: { id: actorId, role } });
    },
  );

  app.get(
    "/api/admin/package-progress/:userId/:courseId",
    {
      schema: {
        tags,
        params: z.object({ userId: id, courseId: id }),
        response: {
          200: learnerPackageProgressSchema,
          ...errorResponses(["courses.not_found", "enrollments.not_found"]),
        },
      },
      preValidation: admin,
    },
    async (request) => packageProgress.ofLearner(request.params),
  );
}
