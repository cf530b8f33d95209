import { type Licence, licenceBodySchema, licenceSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { licenceQueryKey } from "./get-licence";

/** PUT /api/profile/licence: answers the licence as stored. */
async function updateLicence(licence: Licence): Promise<Licence> {
  return apiJson(licenceSchema, "PUT", "/api/profile/licence", licenceBodySchema.parse(licence));
}

export function useUpdateLicence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLicence,
    onSuccess: (licence) => {
      queryClient.setQueryData(licenceQueryKey, licence);
      // A course waiting only for the licence completes now: its checklist moves on.
      return queryClient.invalidateQueries({
        predicate: (query) =>
          query.queryKey[0] === "/api/courses" && query.queryKey[2] === "completion",
      });
    },
  });
}
