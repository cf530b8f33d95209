import type { Database } from "../../db/client";
import { createAuthRepository } from "./auth.repository";
import type { UserRow } from "./auth.table";
import { hashSecret, newSecret } from "./tokens";

/** ARCHITECTURE section 1: 12 h for a browser session, 30 days sliding with 'Remember me'. */
export const SHORT_SESSION_MS = 12 * 60 * 60 * 1000;
export const LONG_SESSION_MS = 30 * 24 * 60 * 60 * 1000;
/** Slide a persistent session at most this often, so reads do not write on every request. */
const SLIDE_EVERY_MS = 60 * 60 * 1000;

export interface ResolvedSession {
  idHash: string;
  persistent: boolean;
  expiresAt: Date;
  /** True when this request slid a persistent session's expiry: the cookie must follow. */
  renewed: boolean;
  user: UserRow;
}

export function createSessionsService({ db }: { db: Database }) {
  const repo = createAuthRepository(db);

  return {
    /** Starts a fresh session (a new id at every sign-in); returns the secret for the cookie. */
    async create({
      userId,
      persistent,
      userAgent,
      ip,
      replacing,
    }: {
      userId: string;
      persistent: boolean;
      userAgent?: string;
      ip?: string;
      replacing?: string;
    }) {
      if (replacing) await repo.deleteSession(replacing);
      const secret = newSecret();
      const now = Date.now();
      const expiresAt = new Date(now + (persistent ? LONG_SESSION_MS : SHORT_SESSION_MS));
      await repo.insertSession({
        idHash: hashSecret(secret),
        userId,
        persistent,
        expiresAt,
        userAgent: userAgent?.slice(0, 300),
        ip,
      });
      return { secret, idHash: hashSecret(secret), persistent, expiresAt };
    },

    /**
     * Finds the live session for a cookie value. A restricted learner's session is
     * ended on sight: restriction takes effect on the very next request.
     */
    async resolve(secret: string): Promise<ResolvedSession | null> {
      const idHash = hashSecret(secret);
      const found = await repo.findSession(idHash);
      if (!found) return null;
      if (found.user.role === "learner" && found.user.status === "restricted") {
        await repo.deleteUserSessions(found.user.id);
        return null;
      }
      const { session } = found;
      let expiresAt = session.expiresAt;
      const now = Date.now();
      const renewed = session.persistent && now - session.lastSeenAt.getTime() > SLIDE_EVERY_MS;
      if (renewed) {
        expiresAt = new Date(now + LONG_SESSION_MS);
        await repo.touchSession(idHash, { lastSeenAt: new Date(now), expiresAt });
      }
      return { idHash, persistent: session.persistent, expiresAt, renewed, user: found.user };
    },

    destroy: (idHash: string) => repo.deleteSession(idHash),
    destroyAllForUser: (userId: string, exceptIdHash?: string) =>
      repo.deleteUserSessions(userId, exceptIdHash),
    purgeExpired: () => repo.deleteExpiredSessions(new Date()),
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
