import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../../lib/api-client";

// The server declares this answer inline in audit.routes.ts; the contract has no schema for
// it yet.
const chainReportSchema = z.object({
  ok: z.boolean(),
  checked: z.number(),
  headSeq: z.number().nullable(),
  headHash: z.string().nullable(),
  /** Events committed but not yet chained (the server links them within a second). */
  unlinked: z.number(),
  broken: z.object({ seq: z.number(), reason: z.string() }).optional(),
});

/** GET /api/audit/verify: the hash chain walked on the server (administrators). */
const verifyAuditChain = () => apiJson(chainReportSchema, "GET", "/api/audit/verify");

const verifyAuditChainQueryOptions = () =>
  queryOptions({ queryKey: ["/api/audit/verify"], queryFn: verifyAuditChain });

export function useAuditChain(enabled: boolean) {
  return useQuery({ ...verifyAuditChainQueryOptions(), enabled });
}
