import { type FactorConfirmation, secondFactorStatusSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { secondFactorStatusQueryKey } from "./get-second-factor-status";

/** POST /api/second-factor/factors/:id/remove, confirmed with the password or a code. */
async function removeSecondFactor(input: { id: string; confirmation: FactorConfirmation }) {
  return apiJson(
    secondFactorStatusSchema,
    "POST",
    `/api/second-factor/factors/${encodeURIComponent(input.id)}/remove`,
    input.confirmation,
  );
}

export function useRemoveSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeSecondFactor,
    onSuccess: (status) => queryClient.setQueryData(secondFactorStatusQueryKey, status),
  });
}
