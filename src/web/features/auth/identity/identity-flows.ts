// Firebase-mode sign-in, setup and sync (SPEC sections 4 and 7). Loaded only through
// identity-client.ts's dynamic import(), together with the Firebase SDK, so deployments
// without Firebase never download it and the sign-in page's first-load JavaScript stays
// as it was.
import type { User } from "@contract";
import { errorCodeOf } from "../../../lib/api-client";
import { firebaseSync } from "../api/firebase-sync";
import { type LoginResult, login as loginRequest } from "../api/login";
import { demoFirebaseUid, setupPassword as setupPasswordRequest } from "../api/setup-password";
import { createAccount, signIn, signOut, watch } from "./firebase-client";
import type { IdentityCredential, IdentitySettings, IdentityUser } from "./identity-types";

export { signOut };

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** Signs in through the identity service; on any failure there, the server-only path. */
export async function login(
  settings: IdentitySettings,
  input: { email: string; password: string; rememberMe: boolean },
): Promise<LoginResult> {
  const { email, password, rememberMe } = input;
  try {
    const identity = await signIn(settings, email, password, rememberMe);
    return await loginRequest({
      email,
      firebaseUid: identity.user.uid,
      firebaseIdToken: identity.idToken,
      rememberMe,
    });
  } catch (error) {
    console.warn("Identity service sign-in failed; trying the server-only path.", error);
    await signOut(settings).catch(() => {});
    return loginRequest({ email, password, rememberMe });
  }
}

/**
 * Creates the identity account (or signs in to one that already has this password).
 * Undefined when the identity service fails: the setup then runs on the server only.
 */
async function identityForSetup(
  settings: IdentitySettings,
  email: string,
  password: string,
): Promise<IdentityCredential | undefined> {
  try {
    return await createAccount(settings, email, password);
  } catch (error) {
    if (codeOf(error) === "auth/email-already-in-use") {
      try {
        return await signIn(settings, email, password, false);
      } catch (signInError) {
        console.warn("Identity service sign-in failed during setup.", signInError);
        return undefined;
      }
    }
    console.warn("Identity service account creation failed; using the server only.", error);
    return undefined;
  }
}

/** First-time setup: the identity account's ID token goes with the password. */
export async function setupPassword(
  settings: IdentitySettings,
  body: { email: string; password: string; name: string; inviteToken?: string },
): Promise<User> {
  const identity = await identityForSetup(settings, body.email, body.password);
  if (!identity) return setupPasswordRequest({ ...body, firebaseUid: demoFirebaseUid() });
  try {
    return await setupPasswordRequest({
      ...body,
      firebaseUid: identity.user.uid,
      firebaseIdToken: identity.idToken,
    });
  } catch (error) {
    // The server could not use the token (refused, or the service is down): set the
    // password on the server only, as when the identity service fails.
    switch (errorCodeOf(error)) {
      case "auth.identity_token_invalid":
      case "auth.identity_mismatch":
      case "auth.identity_unavailable":
        break;
      default:
        throw error;
    }
    console.warn("The server refused the identity token; using the server only.", error);
    await signOut(settings).catch(() => {});
    return setupPasswordRequest({ ...body, firebaseUid: demoFirebaseUid() });
  }
}

/**
 * Follows the identity user; one that appears while `shouldSync()` holds (nobody signed
 * in, no sign-in running) is synced through POST /api/auth/firebase-sync.
 */
export function watchAndSync(
  settings: IdentitySettings,
  handlers: {
    onIdentityUser: (user: IdentityUser | null) => void;
    shouldSync: () => boolean;
    onSynced: (user: User) => void;
  },
): () => void {
  return watch(settings, (identityUser, getIdToken) => {
    handlers.onIdentityUser(identityUser);
    if (!identityUser || !handlers.shouldSync()) return;
    void (async () => {
      try {
        const user = await firebaseSync({
          firebaseIdToken: await getIdToken(),
          firebaseUid: identityUser.uid,
          ...(identityUser.email ? { email: identityUser.email.toLowerCase() } : {}),
          name: identityUser.displayName,
        });
        if (handlers.shouldSync()) handlers.onSynced(user);
      } catch (error) {
        // Not admitted (restricted, not registered, …): leave the identity session too.
        console.warn("Identity session could not be synced with the server.", error);
        await signOut(settings).catch(() => {});
      }
    })();
  });
}
