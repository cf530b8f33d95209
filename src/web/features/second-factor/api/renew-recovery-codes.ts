import { type FactorConfirmation, recoveryCodesSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { secondFactorStatusQueryKey } from "./get-second-factor-status";

/** POST /api/second-factor/recovery-codes: a new set, shown once; the old ones stop working. */
async function renewRecoveryCodes(confirmation: FactorConfirmation) {
  return (
    await apiJson(recoveryCodesSchema, "POST", "/api/second-factor/recovery-codes", confirmation)
  ).recoveryCodes;
}

export function useRenewRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renewRecoveryCodes,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: secondFactorStatusQueryKey }),
  });
}
