import { type AdminStats, adminStatsSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

const adminStatsQueryKey = ["/api/admin/stats"] as const;

/** GET /api/admin/stats: the dashboard figures and the Learners page totals. */
async function getAdminStats(): Promise<AdminStats> {
  return apiJson(adminStatsSchema, "GET", "/api/admin/stats");
}

const getAdminStatsQueryOptions = () =>
  queryOptions({ queryKey: adminStatsQueryKey, queryFn: getAdminStats });

export function useAdminStats() {
  return useQuery(getAdminStatsQueryOptions());
}
