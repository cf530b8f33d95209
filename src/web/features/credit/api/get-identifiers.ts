import { type Identifiers, identifiersSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const identifiersQueryKey = ["/api/me/identifiers"] as const;

/** GET /api/me/identifiers: the signed-in learner's professional identifiers (empty when none). */
async function getIdentifiers(): Promise<Identifiers> {
  return apiJson(identifiersSchema, "GET", "/api/me/identifiers");
}

const getIdentifiersQueryOptions = () =>
  queryOptions({ queryKey: identifiersQueryKey, queryFn: getIdentifiers });

export function useIdentifiers(options: { enabled?: boolean } = {}) {
  return useQuery({ ...getIdentifiersQueryOptions(), enabled: options.enabled });
}
