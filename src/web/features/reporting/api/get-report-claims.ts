import { type Regulator, type ReportClaim, reportClaimSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../../lib/api-client";
import { regulatorsQueryKey } from "./get-regulators";

/** GET /api/admin/reports/regulators/:regulator/claims: each claim and where it stands. */
async function getReportClaims(regulator: Regulator, courseId?: string): Promise<ReportClaim[]> {
  const query = courseId ? `?courseId=${encodeURIComponent(courseId)}` : "";
  return apiJson(
    z.array(reportClaimSchema),
    "GET",
    `/api/admin/reports/regulators/${regulator}/claims${query}`,
  );
}

const getReportClaimsQueryOptions = (regulator: Regulator, courseId?: string) =>
  queryOptions({
    queryKey: [...regulatorsQueryKey, regulator, "claims", courseId ?? null],
    queryFn: () => getReportClaims(regulator, courseId),
  });

export function useReportClaims(regulator: Regulator, courseId?: string) {
  return useQuery(getReportClaimsQueryOptions(regulator, courseId));
}
