import {
  type IdentityService,
  identityUnavailable,
  type VerifiedIdentity,
} from "../../identity/firebase-identity";
import {
  accessDenied,
  identityEmailNotVerified,
  identityInUse,
  identityMismatch,
} from "./auth.errors";
import type { AuthRepository } from "./auth.repository";
import type { UserRow } from "./auth.table";
import { assertMaySignIn } from "./sign-in-rules";

/**
 * How an account of the identity service (Firebase Auth) is bound to a portal account, and
 * how the portal's own changes reach it. The database decides who may sign in: the identity
 * service only proves who someone is.
 */
export function createIdentityBinding({
  repo,
  identity,
  forgetUser,
  log,
}: {
  repo: Pick<AuthRepository, "findUserByFirebaseUid" | "findUserByEmail" | "bindFirebaseUid">;
  identity: IdentityService;
  /** Drops the user's cached sessions after their row changed. */
  forgetUser(userId: string): void;
  log: { error(obj: object, msg: string): void };
}) {
  /**
   * Whether the user's stored uid stands in the way of binding `uid`: a real account of
   * the identity service does; null, or a placeholder (a demo-mode value, a deleted
   * account) does not.
   */
  async function boundElsewhere(user: UserRow, uid: string): Promise<boolean> {
    if (!user.firebaseUid || user.firebaseUid === uid) return false;
    try {
      return await identity.exists(user.firebaseUid);
    } catch (err) {
      log.error({ err, userId: user.id }, "identity service lookup failed");
      throw identityUnavailable();
    }
  }

  /** The unique firebase_uid constraint refuses a uid bound to another user concurrently. */
  async function refuseTakenUid<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const code =
        (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
      if (code === "23505") throw identityInUse();
      throw error;
    }
  }

  return {
    boundElsewhere,
    refuseTakenUid,

    /**
     * Mirrors a local change to the identity service. Its failure is logged and never undoes
     * or blocks the local change: the database decides who may sign in (every identity-service
     * sign-in is checked against it), so a stale mirror cannot let anyone in.
     */
    async mirror(action: string, user: UserRow, run: (uid: string) => Promise<void>) {
      if (!identity.configured || !user.firebaseUid) return;
      try {
        await run(user.firebaseUid);
      } catch (err) {
        log.error({ err, userId: user.id, action }, "identity service update failed");
      }
    },

    /** Verifies the token; the uid and email sent beside it are claims that must match it. */
    async verifiedIdentity(idToken: string, claimed: { email?: string; uid?: string }) {
      const verified = await identity.verifyIdToken(idToken);
      if (claimed.uid !== undefined && claimed.uid !== verified.uid) throw identityMismatch();
      if (claimed.email !== undefined && claimed.email !== verified.email) {
        throw identityMismatch();
      }
      return verified;
    },

    /**
     * The user a verified identity signs in as: the one bound to its uid, else the
     * pre-registered user with its (lower-cased) email, which it is then bound to.
     */
    async userForIdentity(verified: VerifiedIdentity): Promise<UserRow> {
      const bound = await repo.findUserByFirebaseUid(verified.uid);
      if (bound) {
        assertMaySignIn(bound);
        return bound;
      }
      const user = verified.email ? await repo.findUserByEmail(verified.email) : undefined;
      if (!user) throw accessDenied();
      assertMaySignIn(user);
      // Anyone can create an identity-service account for any address: binding by email
      // needs the service to have proven the mailbox. Unverified accounts are bound by the
      // first-time setup instead, under its own rules (invitation token in invite mode).
      if (!verified.emailVerified) throw identityEmailNotVerified();
      if (await boundElsewhere(user, verified.uid)) throw identityInUse();
      const row = await refuseTakenUid(() =>
        repo.bindFirebaseUid(user.id, verified.uid, user.firebaseUid),
      );
      if (!row) throw identityInUse();
      forgetUser(row.id);
      return row;
    },
  };
}

export type IdentityBinding = ReturnType<typeof createIdentityBinding>;
