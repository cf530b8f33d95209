import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

/** POST /api/auth/reset-password: mails a single-use reset link to the address. */
async function requestPasswordReset(email: string): Promise<void> {
  await apiRequest("POST", "/api/auth/reset-password", { email });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
