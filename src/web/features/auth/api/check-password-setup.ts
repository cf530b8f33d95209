import { checkPasswordSetupResponseSchema } from "@contract";
import { apiJson, isApiError } from "../../../lib/api-client";

/**
 * POST /api/auth/check-password-setup: whether this email already has a password.
 * SPEC section 7: the flag is read only when the response is ok, so any HTTP failure
 * reads as "not set"; a request that got no answer at all, or an answer that could not be
 * read, throws.
 */
export async function checkPasswordSetup(email: string): Promise<boolean> {
  try {
    const data = await apiJson(
      checkPasswordSetupResponseSchema,
      "POST",
      "/api/auth/check-password-setup",
      { email },
    );
    return data.passwordSetup;
  } catch (error) {
    if (!isApiError(error)) throw error;
    return false;
  }
}
