import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  courseReportingBodySchema,
  courseReportingSchema,
  cpeMonitorSubmitBodySchema,
  cpeMonitorSubmitResultSchema,
  myRegulatorIdsQuerySchema,
  myRegulatorIdsSchema,
  parsActivityFileBodySchema,
  regulatorConnectionBodySchema,
  regulatorConnectionSchema,
  regulatorIdsBodySchema,
  regulatorOverviewSchema,
  regulatorSchema,
  regulatorSettingsBodySchema,
  reportClaimSchema,
  reportClaimsQuerySchema,
  reportFileSchema,
  reportFilesQuerySchema,
  reportGenerateBodySchema,
} from "../../../contract";
import { errorResponses, fileAnswer } from "../../openapi/responses";
import { actorOf, requireRole, sessionOf } from "../../plugins/sessions";
import type { ReportingService } from "./reporting.service";

const tags = ["reporting"];
const admin = requireRole("admin");
const learner = requireRole("learner");
const id = z.string().min(1).max(64);
const courseParams = z.object({ id });
const regulatorParams = z.object({ regulator: regulatorSchema });
const fileParams = z.object({ regulator: regulatorSchema, fileId: id });

/**
 * Regulator reporting: the learner's identifiers (the learner's own, never another's), what
 * each course reports, and the administrators' report files (learners' completions, and the
 * PARS activity record) with their submission.
 */
export function registerReportingRoutes(
  parent: FastifyInstance,
  deps: { reporting: ReportingService },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { reporting } = deps;

  app.get(
    "/api/me/regulator-ids",
    {
      schema: {
        tags,
        querystring: myRegulatorIdsQuerySchema,
        response: { 200: myRegulatorIdsSchema, ...errorResponses(["courses.not_found"]) },
      },
      preValidation: learner,
    },
    async (request) => reporting.myIds(sessionOf(request).user, request.query.courseId),
  );
  app.put(
    "/api/me/regulator-ids",
    {
      schema: { tags, body: regulatorIdsBodySchema, response: { 200: myRegulatorIdsSchema } },
      preValidation: learner,
    },
    async (request) => reporting.saveMyIds(sessionOf(request).user, request.body),
  );

  app.get(
    "/api/courses/:id/reporting",
    {
      schema: {
        tags,
        params: courseParams,
        response: { 200: courseReportingSchema, ...errorResponses(["courses.not_found"]) },
      },
      preValidation: admin,
    },
    async (request) => reporting.courseReporting(request.params.id),
  );
  app.put(
    "/api/courses/:id/reporting",
    {
      schema: {
        tags,
        params: courseParams,
        body: courseReportingBodySchema,
        response: {
          200: courseReportingSchema,
          ...errorResponses(["courses.not_found", "reporting.credit_type_not_found"]),
        },
      },
      preValidation: admin,
    },
    async (request) =>
      reporting.saveCourseReporting(request.params.id, request.body, actorOf(request)),
  );

  app.get(
    "/api/admin/reports/regulators",
    {
      schema: { tags, response: { 200: z.array(regulatorOverviewSchema) } },
      preValidation: admin,
    },
    async () => reporting.overview(),
  );
  app.put(
    "/api/admin/reports/regulators/:regulator",
    {
      schema: {
        tags,
        params: regulatorParams,
        body: regulatorSettingsBodySchema,
        response: { 200: regulatorOverviewSchema },
      },
      preValidation: admin,
    },
    async (request) =>
      reporting.saveDeadline(request.params.regulator, request.body.deadlineDays, actorOf(request)),
  );
  app.get(
    "/api/admin/reports/regulators/:regulator/claims",
    {
      schema: {
        tags,
        params: regulatorParams,
        querystring: reportClaimsQuerySchema,
        response: { 200: z.array(reportClaimSchema) },
      },
      preValidation: admin,
    },
    async (request) => reporting.claims(request.params.regulator, request.query.courseId),
  );

  app.post(
    "/api/admin/reports/regulators/:regulator/files",
    {
      schema: {
        tags,
        params: regulatorParams,
        body: reportGenerateBodySchema,
        response: {
          200: reportFileSchema,
          ...errorResponses([
            "courses.not_found",
            "reporting.course_not_reporting",
            "reporting.nothing_to_report",
            "reporting.submitted_by_service",
          ]),
        },
      },
      config: { idempotent: true },
      preValidation: admin,
    },
    async (request) => reporting.generate(request.params.regulator, request.body, actorOf(request)),
  );
  app.get(
    "/api/admin/reports/regulators/:regulator/connection",
    {
      schema: { tags, params: regulatorParams, response: { 200: regulatorConnectionSchema } },
      preValidation: admin,
    },
    async (request) => reporting.connection(request.params.regulator),
  );
  app.put(
    "/api/admin/reports/regulators/:regulator/connection",
    {
      schema: {
        tags,
        params: regulatorParams,
        body: regulatorConnectionBodySchema,
        response: {
          200: regulatorConnectionSchema,
          ...errorResponses(["reporting.connection_invalid", "reporting.secrets_key_missing"]),
        },
      },
      preValidation: admin,
    },
    async (request) =>
      reporting.saveConnection(request.params.regulator, request.body, actorOf(request)),
  );
  app.post(
    "/api/admin/reports/regulators/cpe_monitor/submissions",
    {
      schema: {
        tags,
        body: cpeMonitorSubmitBodySchema,
        response: {
          200: cpeMonitorSubmitResultSchema,
          ...errorResponses([
            "courses.not_found",
            "reporting.course_not_reporting",
            "reporting.connection_missing",
            "reporting.nothing_to_report",
          ]),
        },
      },
      // A double click sends each completion once.
      config: { idempotent: true },
      preValidation: admin,
    },
    async (request) => reporting.submitCpeMonitor(request.body, actorOf(request)),
  );
  app.post(
    "/api/admin/reports/regulators/pars/activity-files",
    {
      schema: {
        tags,
        body: parsActivityFileBodySchema,
        response: {
          200: reportFileSchema,
          ...errorResponses([
            "courses.not_found",
            "reporting.course_not_reporting",
            "reporting.activity_record_incomplete",
          ]),
        },
      },
      // A double click writes one activity record file.
      config: { idempotent: true },
      preValidation: admin,
    },
    async (request) => reporting.generateParsActivity(request.body, actorOf(request)),
  );
  app.get(
    "/api/admin/reports/regulators/:regulator/files",
    {
      schema: {
        tags,
        params: regulatorParams,
        querystring: reportFilesQuerySchema,
        response: { 200: z.array(reportFileSchema) },
      },
      preValidation: admin,
    },
    async (request) => reporting.files(request.params.regulator, request.query.courseId),
  );
  app.get(
    "/api/admin/reports/regulators/:regulator/files/:fileId/download",
    {
      schema: {
        tags,
        params: fileParams,
        response: {
          200: fileAnswer(
            "The file exactly as it was generated (a CE Broker roster with the settings' parent provider and upload key)",
            [
              "text/plain",
              "application/xml",
              "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            ],
            { "content-disposition": "`attachment; filename=…`" },
          ),
          ...errorResponses(["reporting.file_not_found", "reporting.connection_missing"]),
        },
      },
      preValidation: admin,
    },
    async (request, reply) => {
      const file = await reporting.download(request.params.regulator, request.params.fileId);
      return reply
        .type(file.contentType)
        .header("content-disposition", `attachment; filename="${file.fileName}"`)
        .send(file.bytes);
    },
  );
  app.post(
    "/api/admin/reports/regulators/:regulator/files/:fileId/submit",
    {
      schema: {
        tags,
        params: fileParams,
        response: {
          200: reportFileSchema,
          ...errorResponses(["reporting.file_not_found", "reporting.already_submitted"]),
        },
      },
      config: { idempotent: true },
      preValidation: admin,
    },
    async (request) =>
      reporting.submit(request.params.regulator, request.params.fileId, actorOf(request)),
  );
}
