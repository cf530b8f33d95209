import { apiRequest } from "../../../lib/api-client";

/**
 * POST /api/auth/resend-invitation: mails a fresh setup link to a registered learner who
 * has no password yet (invite mode). It answers alike for every address.
 */
export async function resendInvitation(email: string): Promise<void> {
  await apiRequest("POST", "/api/auth/resend-invitation", { email });
}
