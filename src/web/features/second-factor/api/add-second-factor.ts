import {
  factorAddedSchema,
  type NewFactor,
  passkeyCreationOptionsSchema,
  totpSetupSchema,
} from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { secondFactorStatusQueryKey } from "./get-second-factor-status";

/** POST /api/second-factor/totp: a new authenticator app's secret, kept until its first code. */
export const startTotpSetup = () => apiJson(totpSetupSchema, "POST", "/api/second-factor/totp");

/** POST /api/second-factor/passkey-options: what the browser makes a new passkey with. */
export const startPasskeySetup = () =>
  apiJson(passkeyCreationOptionsSchema, "POST", "/api/second-factor/passkey-options");

/** POST /api/second-factor/factors: adds the factor begun last (recovery codes with the first). */
async function addSecondFactor(factor: NewFactor) {
  return apiJson(factorAddedSchema, "POST", "/api/second-factor/factors", factor);
}

export function useAddSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addSecondFactor,
    onSuccess: ({ newRecoveryCodes: _codes, ...status }) =>
      queryClient.setQueryData(secondFactorStatusQueryKey, status),
  });
}
