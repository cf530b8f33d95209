import { DEFAULT_DATE_FORMAT, organisationSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { getQueryFn } from "./api-client";

export const organisationQueryKey = ["/api/organisation"] as const;

/** GET /api/organisation: the issuer of certificates and the portal's date format (public). */
export const getOrganisationQueryOptions = () =>
  queryOptions({
    queryKey: organisationQueryKey,
    queryFn: getQueryFn(organisationSchema, { on401: "throw" }),
  });

export function useOrganisation() {
  return useQuery(getOrganisationQueryOptions());
}

/** The date format certificates print, the default until the profile is read. */
export function useDateFormat() {
  return useOrganisation().data?.dateFormat ?? DEFAULT_DATE_FORMAT;
}
