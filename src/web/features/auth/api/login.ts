import { type User, userResponseSchema } from "@contract";
import { apiJson } from "../../../lib/api-client";

export type LoginInput = {
  email: string;
  rememberMe?: boolean;
} & (
  | { password: string }
  /** After identity-service sign-in (SPEC section 7): the server verifies the ID token. */
  | { firebaseUid: string; firebaseIdToken: string }
);

/** POST /api/auth/login: email and password, or the identity service's ID token. */
export async function login(input: LoginInput): Promise<User> {
  const { user } = await apiJson(userResponseSchema, "POST", "/api/auth/login", input);
  return user;
}
