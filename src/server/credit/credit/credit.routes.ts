import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  type Certificate,
  creditSettingsBodySchema,
  creditSettingsSchema,
  signatureBodySchema,
} from "../../../contract";
import { fileNamePart, sendCsvDownload } from "../../lib/csv";
import { errorResponses, fileAnswer } from "../../openapi/responses";
import { actorOf, requireRole } from "../../plugins/sessions";
import type { ActivityService } from "../activity/activity.service";
import type { CreditService } from "./credit.service";
import { creditReportLines } from "./credit-reports";

const tags = ["credit"];
const admin = requireRole("admin");
const id = z.string().min(1).max(64);
const courseParams = z.object({ id });

export interface CreditRoutesDeps {
  credit: CreditService;
  /** The activity feature: the course, so an unknown one is a 404. */
  activity: Pick<ActivityService, "course">;
  /** The certificates feature: a course's valid certificates, for the credit report. */
  certificates: {
    creditedOfCourse(
      courseId: string,
    ): Promise<(Certificate & { learnerEmail: string | null; enrolledAt: string })[]>;
  };
}

/** Credit settings, the responsible official's signature and the credit report. */
export function registerCreditRoutes(parent: FastifyInstance, deps: CreditRoutesDeps) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { credit } = deps;

  app.put(
    "/api/courses/:id/credit-settings",
    {
      schema: {
        tags,
        params: courseParams,
        body: creditSettingsBodySchema,
        response: {
          200: creditSettingsSchema,
          ...errorResponses(["courses.not_found", "credit.fields_of_study_mismatch"]),
        },
      },
      preValidation: admin,
    },
    async (request) => credit.saveCreditSettings(request.params.id, request.body, actorOf(request)),
  );
  app.put(
    "/api/courses/:id/signature",
    {
      schema: {
        tags,
        params: courseParams,
        body: signatureBodySchema,
        response: {
          200: creditSettingsSchema,
          ...errorResponses(["courses.not_found", "credit.signature_not_image"]),
        },
      },
      preValidation: admin,
    },
    async (request) =>
      credit.saveSignature(request.params.id, request.body.dataUrl, actorOf(request)),
  );
  app.delete(
    "/api/courses/:id/signature",
    {
      schema: {
        tags,
        params: courseParams,
        response: { 200: creditSettingsSchema, ...errorResponses(["courses.not_found"]) },
      },
      preValidation: admin,
    },
    async (request) => credit.removeSignature(request.params.id, actorOf(request)),
  );
  // Public: a certificate's verification page shows its signature to anyone holding the code.
  app.get(
    "/api/signatures/:id",
    {
      schema: {
        tags,
        params: courseParams,
        response: {
          200: fileAnswer("The signature image, as it was checked when uploaded", [
            "image/png",
            "image/jpeg",
          ]),
          ...errorResponses(["credit.signature_not_found"]),
        },
      },
    },
    async (request, reply) => {
      const signature = await credit.signature(request.params.id);
      return reply
        .type(signature.contentType)
        .header("cache-control", "public, max-age=31536000, immutable")
        .send(signature.bytes);
    },
  );

  app.get(
    "/api/courses/:id/credit-report",
    {
      schema: {
        tags,
        params: courseParams,
        response: {
          200: fileAnswer("The course's credit report", ["text/csv"], {
            "content-disposition": '`attachment; filename="credit-report-<course>-<date>.csv"`',
          }),
          ...errorResponses(["courses.not_found"]),
        },
      },
      preValidation: admin,
    },
    async (request, reply) => {
      // Resolves the course first, so an unknown one is a 404, not an empty file.
      const course = await deps.activity.course(request.params.id);
      const certificates = await deps.certificates.creditedOfCourse(request.params.id);
      const name = `credit-report-${fileNamePart(course.title)}`;
      return sendCsvDownload(reply, name, creditReportLines(certificates));
    },
  );
}
