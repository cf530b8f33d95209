import { checkEmailResponseSchema } from "@contract";
import { apiJson, isApiError } from "../../../lib/api-client";

/**
 * POST /api/auth/check-email: whether an administrator registered this email.
 * SPEC section 7: a failed answer counts as not registered. A request that never got an
 * answer (network down), an answer that could not be read, a rate limit or a server fault is
 * not an answer about the email, so those still throw and the dialog shows 'Email check
 * failed'.
 */
export async function checkEmailRegistration(email: string): Promise<boolean> {
  try {
    const data = await apiJson(checkEmailResponseSchema, "POST", "/api/auth/check-email", {
      email,
    });
    return data.isRegistered;
  } catch (error) {
    if (!isApiError(error) || error.status === 429 || error.status >= 500) throw error;
    return false;
  }
}
