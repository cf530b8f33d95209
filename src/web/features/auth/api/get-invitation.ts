import { type Invitation, invitationResponseSchema } from "@contract";
import { apiJson } from "../../../lib/api-client";

/**
 * POST /api/auth/invitation: whom the setup link's token invites (their email and the name
 * the administrator entered). Fails with `auth.invitation_invalid` (404) when the link is no
 * longer valid.
 */
export async function getInvitation(token: string): Promise<Invitation> {
  return apiJson(invitationResponseSchema, "POST", "/api/auth/invitation", { token });
}
