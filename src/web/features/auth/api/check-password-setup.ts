import { apiRequest, getErrorStatus } from "../../../lib/api-client";

/**
 * POST /api/auth/check-password-setup: whether this email already has a password.
 * SPEC section 7: the flag is read only when the response is ok, so any HTTP failure
 * reads as "not set"; a request that got no answer at all throws.
 */
export async function checkPasswordSetup(email: string): Promise<boolean> {
  try {
    const res = await apiRequest("POST", "/api/auth/check-password-setup", { email });
    const data = (await res.json()) as { passwordSetup?: unknown };
    return data.passwordSetup === true;
  } catch (error) {
    if (getErrorStatus(error) === undefined) throw error;
    return false;
  }
}
