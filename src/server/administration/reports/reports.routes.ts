import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { adminStatsSchema, reportsSchema } from "../../../contract";
import { fileAnswer } from "../../openapi/responses";
import { requireRole } from "../../plugins/sessions";
import type { ReportsService } from "./reports.service";
import {
  type PackageCsvRecord,
  packageCsvLines,
  reportCsvLines,
  type WatchCsvRecord,
  watchCsvLines,
} from "./reports-csv";

const tags = ["reports"];
const admin = requireRole("admin");

export function registerReportsRoutes(
  parent: FastifyInstance,
  {
    reports,
    watching,
    packages,
  }: {
    reports: ReportsService;
    /** The learning context's watching: per learner and module, appended to the CSV export. */
    watching?: { csvRecords(): AsyncIterable<WatchCsvRecord> };
    /** The learning context's package modules: per learner and module, after the watching. */
    packages?: { csvRecords(): AsyncIterable<PackageCsvRecord> };
  },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/admin/stats",
    { schema: { tags, response: { 200: adminStatsSchema } }, preValidation: admin },
    async () => reports.stats(),
  );

  // Sent as the JSON the service already encoded with reportsSchema, once for all the
  // requests waiting on it; the schema still documents the route.
  parent.get(
    "/api/admin/reports",
    { schema: { tags, response: { 200: reportsSchema } }, preValidation: admin },
    async (_request, reply) =>
      reply.type("application/json; charset=utf-8").send(await reports.reportsJson()),
  );

  app.get(
    "/api/admin/reports/export",
    {
      schema: {
        tags,
        response: {
          200: fileAnswer(
            "Every course's and learner's figures, then the watching records and the package modules' attempts",
            ["text/csv"],
            { "content-disposition": '`attachment; filename="report-<date>.csv"`' },
          ),
        },
      },
      preValidation: admin,
      config: { expensive: true },
    },
    async (_request, reply) => {
      const now = new Date();
      const report = await reports.reports();
      const fileName = `report-${now.toISOString().slice(0, 10)}.csv`;
      reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${fileName}"`)
        .header("cache-control", "no-store");
      // A byte-order mark makes spreadsheet programs read the file as UTF-8.
      const lines = ["\ufeff", ...reportCsvLines(report, now)];
      return reply.send(
        Readable.from(
          watching || packages
            ? (async function* () {
                yield* lines;
                if (watching) yield* watchCsvLines(watching.csvRecords());
                if (packages) yield* packageCsvLines(packages.csvRecords());
              })()
            : lines,
        ),
      );
    },
  );
}
