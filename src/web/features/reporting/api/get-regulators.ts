import { type RegulatorOverview, regulatorOverviewSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../../lib/api-client";

/** Every query of the reporting page starts with this key: one invalidation refreshes all. */
export const regulatorsQueryKey = ["/api/admin/reports/regulators"] as const;

/** GET /api/admin/reports/regulators: each regulator, its deadline and what waits for it. */
async function getRegulators(): Promise<RegulatorOverview[]> {
  return apiJson(z.array(regulatorOverviewSchema), "GET", "/api/admin/reports/regulators");
}

const getRegulatorsQueryOptions = () =>
  queryOptions({ queryKey: [...regulatorsQueryKey, "overview"], queryFn: getRegulators });

export function useRegulators() {
  return useQuery(getRegulatorsQueryOptions());
}
