import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  auditEventsPageSchema,
  auditEventsQuerySchema,
  auditQuerySchema,
  chainReportSchema,
} from "../../../contract";
import { errorResponses, fileAnswer } from "../../openapi/responses";
import { requireRole } from "../../plugins/sessions";
import type { AuditService } from "./audit.service";
import { auditCsvLines } from "./audit-csv";
import {
  type AuditPeopleLookups,
  auditEventsPage,
  auditFilterOf,
  decodeAuditCursor,
} from "./audit-list";

const tags = ["audit"];

export interface AuditRoutesOptions {
  audit: AuditService;
  /**
   * Names beside the ids of the export and the list, and people by the email typed in a
   * filter, from the users' and the courses' own services.
   */
  names: AuditPeopleLookups;
}

export function registerAuditRoutes(parent: FastifyInstance, { audit, names }: AuditRoutesOptions) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const admin = requireRole("admin");

  /**
   * The audit trail as CSV, filtered as the list is (who, what, course, learner, whole UTC
   * days), in chain order; `events` links every committed event first.
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
      const filter = await auditFilterOf(request.query, names);
      const events = filter ? audit.events(filter) : nothing();
      const stamp = new Date().toISOString().slice(0, 10);
      return reply
        .header("content-disposition", `attachment; filename="audit-${stamp}.csv"`)
        .type("text/csv; charset=utf-8")
        .send(Readable.from(auditCsvLines(events, names)));
    },
  );

  /**
   * The list on screen: a page of events matching the filters, newest first, each with who
   * acted, the learner, the course and what happened in words. `nextCursor` asks for the
   * page after it (null on the last).
   */
  app.get(
    "/api/audit/events",
    {
      schema: {
        tags,
        querystring: auditEventsQuerySchema,
        response: {
          200: auditEventsPageSchema,
          ...errorResponses(["validation.invalid_range", "validation.invalid_cursor"]),
        },
      },
      preValidation: admin,
    },
    async (request) => {
      const { limit, cursor, ...query } = request.query;
      const beforeSeq = decodeAuditCursor(cursor);
      const filter = await auditFilterOf(query, names);
      if (!filter) return { events: [], nextCursor: null };
      const rows = await audit.newest(filter, { beforeSeq, limit: limit + 1 });
      return auditEventsPage(rows, limit, names);
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

/** No events: the filters name nobody the trail could hold. */
async function* nothing(): AsyncGenerator<never> {}
