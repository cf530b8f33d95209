import { type User, userResponseSchema } from "@contract";
import { apiJson } from "../../../lib/api-client";

export type SetupPasswordInput = {
  email: string;
  password: string;
  name: string;
  /** A generated demo value while the identity service is not configured (SPEC section 7). */
  firebaseUid?: string;
  /** The ID token of the identity account just created (Firebase mode). */
  firebaseIdToken?: string;
  /** The invitation token from the emailed setup link, when there is one. */
  inviteToken?: string;
};

/** POST /api/auth/setup-password: first-time password setup; also signs the learner in. */
export async function setupPassword(input: SetupPasswordInput): Promise<User> {
  const { user } = await apiJson(userResponseSchema, "POST", "/api/auth/setup-password", input);
  return user;
}

/** The uid sent when the identity service is unavailable: "demo_" and a random part. */
export function demoFirebaseUid(): string {
  const random = crypto.randomUUID?.().replaceAll("-", "") ?? Math.random().toString(36).slice(2);
  return `demo_${random}`;
}
