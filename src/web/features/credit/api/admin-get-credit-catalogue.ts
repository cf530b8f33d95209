import { creditCatalogueSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { getQueryFn } from "../../../lib/api-client";

export const creditCatalogueQueryKey = ["/api/credit-catalogue"] as const;

/**
 * GET /api/credit-catalogue: the organisation's accrediting bodies and credit types, kept in
 * Settings and offered by courses.
 */
const getCreditCatalogueQueryOptions = () =>
  queryOptions({
    queryKey: creditCatalogueQueryKey,
    queryFn: getQueryFn(creditCatalogueSchema, { on401: "throw" }),
  });

export function useCreditCatalogue() {
  return useQuery(getCreditCatalogueQueryOptions());
}
