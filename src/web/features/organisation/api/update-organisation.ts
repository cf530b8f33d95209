import { type Organisation, type OrganisationBody, organisationSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { organisationQueryKey } from "../../../lib/organisation";

/** PUT /api/admin/organisation: answers the profile as stored. */
function updateOrganisation(body: OrganisationBody): Promise<Organisation> {
  return apiJson(organisationSchema, "PUT", "/api/admin/organisation", body);
}

export function useUpdateOrganisation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrganisation,
    onSuccess: (organisation) => queryClient.setQueryData(organisationQueryKey, organisation),
  });
}
