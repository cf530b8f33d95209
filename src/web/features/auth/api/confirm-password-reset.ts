import { type User, userResponseSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { meQueryKey } from "./get-me";

type ConfirmPasswordResetInput = { token: string; password: string };

/**
 * POST /api/auth/reset-password/confirm: sets the new password from an emailed link, ends
 * the account's other sessions and signs this browser in.
 */
async function confirmPasswordReset(input: ConfirmPasswordResetInput): Promise<User> {
  const { user } = await apiJson(
    userResponseSchema,
    "POST",
    "/api/auth/reset-password/confirm",
    input,
  );
  return user;
}

/** Confirms the reset and makes its user the session's user, as a sign-in does. */
export function useConfirmPasswordReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmPasswordReset,
    onSuccess: (user) => {
      // Whoever was signed in before in this browser is gone: drop their cached data.
      queryClient.removeQueries({
        predicate: (query) =>
          query.queryKey[0] !== meQueryKey[0] && query.queryKey[0] !== "/api/config",
      });
      queryClient.setQueryData(meQueryKey, user);
    },
  });
}
