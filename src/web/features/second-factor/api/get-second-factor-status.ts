import { type SecondFactorStatus, secondFactorStatusSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const secondFactorStatusQueryKey = ["/api/second-factor"] as const;

/** GET /api/second-factor: the signed-in administrator's factors and recovery codes. */
async function getSecondFactorStatus(): Promise<SecondFactorStatus> {
  return apiJson(secondFactorStatusSchema, "GET", "/api/second-factor");
}

export function useSecondFactorStatus() {
  return useQuery(
    queryOptions({ queryKey: secondFactorStatusQueryKey, queryFn: getSecondFactorStatus }),
  );
}
