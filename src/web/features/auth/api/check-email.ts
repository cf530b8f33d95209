import { apiRequest, getErrorStatus } from "../../../lib/api-client";

/**
 * POST /api/auth/check-email: whether an administrator registered this email.
 * SPEC section 7: a failed answer counts as not registered. A request that never got an
 * answer (network down), a rate limit or a server fault is not an answer about the email,
 * so those still throw and the dialog shows 'Email check failed'.
 */
export async function checkEmailRegistration(email: string): Promise<boolean> {
  try {
    const res = await apiRequest("POST", "/api/auth/check-email", { email });
    const data = (await res.json()) as { isRegistered?: unknown };
    return data.isRegistered === true;
  } catch (error) {
    const status = getErrorStatus(error);
    if (status === undefined || status === 429 || status >= 500) throw error;
    return false;
  }
}
