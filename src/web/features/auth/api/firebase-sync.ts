import { type FirebaseSyncBody, type User, userResponseSchema } from "@contract";
import { apiJson } from "../../../lib/api-client";

/**
 * POST /api/auth/firebase-sync (SPEC sections 4 and 7): an identity user without a
 * server session. The server trusts only the ID token, never the uid or email beside it.
 */
export async function firebaseSync(input: FirebaseSyncBody): Promise<User> {
  const { user } = await apiJson(userResponseSchema, "POST", "/api/auth/firebase-sync", input);
  return user;
}
