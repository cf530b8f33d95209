import { randomUUID } from "node:crypto";
import type { AppOptions } from "firebase-admin/app";
import { FIREBASE_NOT_CONFIGURED } from "../../contract";
import { appError } from "../plugins/errors";

/** What the server learns from an ID token it verified itself; nothing else is trusted. */
export interface VerifiedIdentity {
  uid: string;
  /** Lower-cased, as every email in the database. */
  email: string | null;
  emailVerified: boolean;
}

/**
 * The identity service (Firebase Auth) as the server uses it. Every helper of the
 * unconfigured service throws 'Firebase not configured' (SPEC section 8).
 */
export interface IdentityService {
  readonly configured: boolean;
  /** Verifies signature, audience, issuer, expiry and revocation (`checkRevoked`). */
  verifyIdToken(idToken: string): Promise<VerifiedIdentity>;
  /** Disabling also revokes the refresh tokens, so no new ID token can be minted. */
  setDisabled(uid: string, disabled: boolean): Promise<void>;
  deleteUser(uid: string): Promise<void>;
  /** Keeps the identity service's password in step with the server's, and revokes tokens. */
  updatePassword(uid: string, password: string): Promise<void>;
  /** False when the identity service has no account with this uid. */
  exists(uid: string): Promise<boolean>;
  close(): Promise<void>;
}

/** The token was refused: forged, unsigned, expired, revoked, or its account disabled or gone. */
const identityTokenRejected = () =>
  appError(
    401,
    "auth.identity_token_invalid",
    "The sign-in token could not be verified. Please sign in again.",
  );
/** The identity service could not be asked (network, credentials): callers may fall back. */
export const identityUnavailable = () =>
  appError(
    503,
    "auth.identity_unavailable",
    "The identity service is unavailable. Please try again.",
  );
const firebaseNotConfigured = () =>
  appError(400, "auth.identity_not_configured", FIREBASE_NOT_CONFIGURED);

export interface FirebaseSettings {
  projectId: string;
}

/** Test seams only: a credential and an HTTP agent (see identity/signed-tokens.test.ts). */
export type FirebaseAdminOptions = Pick<AppOptions, "credential" | "httpAgent">;

/** Error codes meaning the service could not answer, as opposed to refusing the token. */
function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (typeof code !== "string") return true;
  return code.startsWith("app/") || code === "auth/internal-error";
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown })?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Firebase Auth through `firebase-admin`, or the not-configured service when `settings`
 * is undefined. With FIREBASE_AUTH_EMULATOR_HOST set, firebase-admin talks to the
 * emulator (and accepts its unsigned tokens); config.ts refuses that in production.
 */
export async function createIdentityService(
  settings: FirebaseSettings | undefined,
  adminOptions: FirebaseAdminOptions = {},
): Promise<IdentityService> {
  if (!settings) return notConfiguredIdentity;
  // Loaded only when Firebase is on: the SDK weighs tens of megabytes of memory and most
  // portals sign in with passwords alone.
  const [{ deleteApp, initializeApp }, { getAuth }] = await Promise.all([
    import("firebase-admin/app"),
    import("firebase-admin/auth"),
  ]);
  // A named app per service, so several app instances (tests) never share state.
  const app = initializeApp(
    { projectId: settings.projectId, ...adminOptions },
    `credo-${randomUUID()}`,
  );
  const auth = getAuth(app);

  return {
    configured: true,

    async verifyIdToken(idToken) {
      try {
        const decoded = await auth.verifyIdToken(idToken, true);
        return {
          uid: decoded.uid,
          email: typeof decoded.email === "string" ? decoded.email.toLowerCase() : null,
          emailVerified: decoded.email_verified === true,
        };
      } catch (error) {
        if (isUnavailable(error)) throw Object.assign(identityUnavailable(), { cause: error });
        throw Object.assign(identityTokenRejected(), { cause: error, reason: codeOf(error) });
      }
    },

    async setDisabled(uid, disabled) {
      await auth.updateUser(uid, { disabled });
      if (disabled) await auth.revokeRefreshTokens(uid);
    },

    async deleteUser(uid) {
      try {
        await auth.deleteUser(uid);
      } catch (error) {
        // Already gone is what we wanted.
        if (codeOf(error) !== "auth/user-not-found") throw error;
      }
    },

    async updatePassword(uid, password) {
      await auth.updateUser(uid, { password });
      await auth.revokeRefreshTokens(uid);
    },

    async exists(uid) {
      try {
        await auth.getUser(uid);
        return true;
      } catch (error) {
        if (codeOf(error) === "auth/user-not-found") return false;
        throw error;
      }
    },

    close: () => deleteApp(app),
  };
}

const notConfigured = async (): Promise<never> => {
  throw firebaseNotConfigured();
};

const notConfiguredIdentity: IdentityService = {
  configured: false,
  verifyIdToken: notConfigured,
  setDisabled: notConfigured,
  deleteUser: notConfigured,
  updatePassword: notConfigured,
  exists: notConfigured,
  close: async () => {},
};
