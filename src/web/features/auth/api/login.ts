import { loginResponseSchema, type SecondStep, type User } from "@contract";
import { apiJson } from "../../../lib/api-client";

export type LoginInput = {
  email: string;
  rememberMe?: boolean;
} & (
  | { password: string }
  /** After identity-service sign-in (SPEC section 7): the server verifies the ID token. */
  | { firebaseUid: string; firebaseIdToken: string }
);

/** Signed in, or an administrator's sign-in waiting for its second factor. */
export type LoginResult = { user: User } | { secondFactor: SecondStep };

/** POST /api/auth/login: email and password, or the identity service's ID token. */
export async function login(input: LoginInput): Promise<LoginResult> {
  return apiJson(loginResponseSchema, "POST", "/api/auth/login", input);
}
