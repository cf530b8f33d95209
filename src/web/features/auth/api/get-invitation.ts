import { type Invitation, invitationResponseSchema } from "@contract";
import { apiRequest } from "../../../lib/api-client";

/**
 * POST /api/auth/invitation: whom the setup link's token invites (their email and the name
 * the administrator entered). Fails with 404 when the link is no longer valid.
 */
export async function getInvitation(token: string): Promise<Invitation> {
  const res = await apiRequest("POST", "/api/auth/invitation", { token });
  return invitationResponseSchema.parse(await res.json());
}
