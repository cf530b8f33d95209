import { type Reports, reportsSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

const reportsQueryKey = ["/api/admin/reports"] as const;

/** The CSV download of the same report (streamed by the server). */
export const REPORT_EXPORT_URL = "/api/admin/reports/export";

/** GET /api/admin/reports: summary, per course, per category and recent completions. */
async function getReports(): Promise<Reports> {
  return apiJson(reportsSchema, "GET", "/api/admin/reports");
}

const getReportsQueryOptions = () =>
  queryOptions({ queryKey: reportsQueryKey, queryFn: getReports });

export function useReports() {
  return useQuery(getReportsQueryOptions());
}
