import { type Licence, licenceSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const licenceQueryKey = ["/api/profile/licence"] as const;

/** GET /api/profile/licence: the signed-in user's professional licence (empty fields when none). */
async function getLicence(): Promise<Licence> {
  return apiJson(licenceSchema, "GET", "/api/profile/licence");
}

const getLicenceQueryOptions = () =>
  queryOptions({ queryKey: licenceQueryKey, queryFn: getLicence });

export function useLicence(options: { enabled?: boolean } = {}) {
  return useQuery({ ...getLicenceQueryOptions(), enabled: options.enabled });
}
