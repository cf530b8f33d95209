import { chainReportSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

/** GET /api/audit/verify: the hash chain walked on the server (administrators). */
const verifyAuditChain = () => apiJson(chainReportSchema, "GET", "/api/audit/verify");

const verifyAuditChainQueryOptions = () =>
  queryOptions({ queryKey: ["/api/audit/verify"], queryFn: verifyAuditChain });

export function useAuditChain(enabled: boolean) {
  return useQuery({ ...verifyAuditChainQueryOptions(), enabled });
}
