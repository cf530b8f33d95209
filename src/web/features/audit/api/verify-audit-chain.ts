import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

type ChainReport = {
  ok: boolean;
  checked: number;
  headSeq: number | null;
  headHash: string | null;
  /** Events committed but not yet chained (the server links them within a second). */
  unlinked: number;
  broken?: { seq: number; reason: string };
};

/** GET /api/audit/verify: the hash chain walked on the server (administrators). */
const verifyAuditChain = () => apiJson<ChainReport>("GET", "/api/audit/verify");

const verifyAuditChainQueryOptions = () =>
  queryOptions({ queryKey: ["/api/audit/verify"], queryFn: verifyAuditChain });

export function useAuditChain(enabled: boolean) {
  return useQuery({ ...verifyAuditChainQueryOptions(), enabled });
}
