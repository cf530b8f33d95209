import { loginResponseSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { meQueryKey } from "./get-me";
import type { LoginResult } from "./login";

type ConfirmPasswordResetInput = { token: string; password: string };

/**
 * POST /api/auth/reset-password/confirm: sets the new password from an emailed link, ends
 * the account's other sessions and signs this browser in, or, for an administrator with a
 * second factor, opens the second step as a sign-in with the password does.
 */
function confirmPasswordReset(input: ConfirmPasswordResetInput): Promise<LoginResult> {
  return apiJson(loginResponseSchema, "POST", "/api/auth/reset-password/confirm", input);
}

/** Confirms the reset and, once signed in, makes its user the session's user. */
export function useConfirmPasswordReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmPasswordReset,
    onSuccess: (result) => {
      // Whoever was signed in before in this browser is gone: drop their cached data.
      queryClient.removeQueries({
        predicate: (query) =>
          query.queryKey[0] !== meQueryKey[0] && query.queryKey[0] !== "/api/config",
      });
      queryClient.setQueryData(meQueryKey, "user" in result ? result.user : null);
    },
  });
}
