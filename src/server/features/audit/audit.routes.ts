import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { auditQuerySchema, chainReportSchema } from "../../../contract";
import { errorResponses, fileAnswer } from "../../openapi/responses";
import { invalidField } from "../../plugins/errors";
import { requireRole } from "../../plugins/sessions";
import type { AuditService } from "./audit.service";
import { type AuditNameLookups, auditCsvLines } from "./audit-csv";

const tags = ["audit"];
const DAY_MS = 86_400_000;

export interface AuditRoutesOptions {
  audit: AuditService;
  /** Names beside the ids of the export, from the users' and the courses' own services. */
  names: AuditNameLookups;
}

export function registerAuditRoutes(parent: FastifyInstance, { audit, names }: AuditRoutesOptions) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const admin = requireRole("admin");

  /**
   * The audit trail as CSV for a learner, a course and/or a range of whole UTC days, in
   * chain order; `events` links every committed event first.
   */
  app.get(
    "/api/audit",
    {
      schema: {
        tags,
        querystring: auditQuerySchema,
        response: {
          200: fileAnswer("The audit events, in chain order", ["text/csv"], {
            "content-disposition": '`attachment; filename="audit-<date>.csv"`',
          }),
          ...errorResponses(["validation.invalid_range"]),
        },
      },
      preValidation: admin,
      config: { expensive: true },
    },
    async (request, reply) => {
      const { learnerId, courseId, from, to } = request.query;
      const fromDate = from ? new Date(`${from}T00:00:00Z`) : undefined;
      // `to` is inclusive: events before the start of the next day.
      const toDate = to ? new Date(new Date(`${to}T00:00:00Z`).getTime() + DAY_MS) : undefined;
      if (fromDate && toDate && fromDate >= toDate)
        throw invalidField("validation.invalid_range", "to", "must not be before from");
      const events = audit.events({
        learnerId: learnerId || undefined,
        courseId: courseId || undefined,
        from: fromDate,
        to: toDate,
      });
      const stamp = new Date().toISOString().slice(0, 10);
      return reply
        .header("content-disposition", `attachment; filename="audit-${stamp}.csv"`)
        .type("text/csv; charset=utf-8")
        .send(Readable.from(auditCsvLines(events, names)));
    },
  );

  /**
   * Links, then walks the hash chain (as `npm run audit:verify` does) and reports the first
   * break and the rows still unlinked.
   */
  app.get(
    "/api/audit/verify",
    {
      schema: {
        tags,
        response: {
          200: chainReportSchema,
        },
      },
      preValidation: admin,
    },
    async () => audit.verify(),
  );
}
