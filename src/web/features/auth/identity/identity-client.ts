import { FIREBASE_NOT_CONFIGURED } from "@contract";
import type { IdentitySettings } from "./identity-types";

let flows: Promise<typeof import("./identity-flows")> | undefined;

/**
 * The identity-service helpers (SPEC sections 4 and 8): loaded on first use with a dynamic
 * import(), as one chunk with the Firebase SDK. Raises 'Firebase not configured' when the
 * deployment has no Firebase settings.
 */
export function loadIdentity(
  settings: IdentitySettings | null | undefined,
): Promise<typeof import("./identity-flows")> {
  if (!settings) return Promise.reject(new Error(FIREBASE_NOT_CONFIGURED));
  flows ??= import("./identity-flows");
  return flows;
}
