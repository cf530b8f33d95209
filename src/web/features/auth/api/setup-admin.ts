import { type User, userResponseSchema } from "@contract";
import { apiJson } from "../../../lib/api-client";

export type SetupAdminInput = { email: string; password: string; name: string; adminKey: string };

/** POST /api/auth/setup-admin-password: creates an administrator and signs them in. */
export async function setupAdmin(input: SetupAdminInput): Promise<User> {
  const { user } = await apiJson(
    userResponseSchema,
    "POST",
    "/api/auth/setup-admin-password",
    input,
  );
  return user;
}
