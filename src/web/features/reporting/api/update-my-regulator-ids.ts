import {
  type MyRegulatorIds,
  myRegulatorIdsSchema,
  type RegulatorIdsBody,
  regulatorIdsBodySchema,
} from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

/** PUT /api/me/regulator-ids: answers the identifiers as stored. */
async function updateMyRegulatorIds(body: RegulatorIdsBody): Promise<MyRegulatorIds> {
  return apiJson(
    myRegulatorIdsSchema,
    "PUT",
    "/api/me/regulator-ids",
    regulatorIdsBodySchema.parse(body),
  );
}

export function useUpdateMyRegulatorIds() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMyRegulatorIds,
    // Every page showing them (the profile, an attestation) reads them again.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["/api/me/regulator-ids"] }),
  });
}
