import type { ChangeFeed } from "../../db/change-feed";
import type { Database } from "../../db/client";
import { createReadCache } from "../../db/read-cache";
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

/**
 * Sessions in memory. Every signed-in request resolves its session; a database round
 * trip for it cost more than the rest of a small request. Entries are dropped when their
 * session or user row changes, in any instance (migration 0010, db/change-feed.ts), so a
 * sign-out, a restriction or a deletion still takes effect on the very next request.
 */
const SESSION_CACHE_MAX = 100_000;
/**
 * A safety net only, as for the other caches: changes drop a session at once, and its expiry
 * is checked on every request. A minute here read every active session again each minute:
 * 333 reads a second for 20,000 learners watching, none of them needed.
 */
const SESSION_CACHE_TTL_MS = 5 * 60_000;

export function createSessionsService({ db, changes }: { db: Database; changes?: ChangeFeed }) {
  const repo = createAuthRepository(db);
  type Found = NonNullable<Awaited<ReturnType<typeof repo.findSession>>>;
  const cache = changes
    ? createReadCache<Found>({
        feed: changes,
        tables: ["sessions", "users"],
        tagsOf: (found) => [`sessions:${found.session.idHash}`, `users:${found.user.id}`],
        max: SESSION_CACHE_MAX,
        ttlMs: SESSION_CACHE_TTL_MS,
      })
    : undefined;
  const findSession = (idHash: string) =>
    cache ? cache.get(idHash, () => repo.findSession(idHash)) : repo.findSession(idHash);
  /** After this process changed a session or user: drop it here now, before the notification. */
  const forgetSession = (idHash: string) => changes?.announce("sessions", idHash);
  const forgetUser = (userId: string) => changes?.announce("users", userId);

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
      if (replacing) {
        await repo.deleteSession(replacing);
        forgetSession(replacing);
      }
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
      const found = await findSession(idHash);
      if (!found) return null;
      const now = Date.now();
      // A cached session may have expired since it was read.
      if (found.session.expiresAt.getTime() <= now) return null;
      if (found.user.role === "learner" && found.user.status === "restricted") {
        await repo.deleteUserSessions(found.user.id);
        forgetUser(found.user.id);
        return null;
      }
      const { session } = found;
      let expiresAt = session.expiresAt;
      const renewed = session.persistent && now - session.lastSeenAt.getTime() > SLIDE_EVERY_MS;
      if (renewed) {
        expiresAt = new Date(now + LONG_SESSION_MS);
        await repo.touchSession(idHash, { lastSeenAt: new Date(now), expiresAt });
        forgetSession(idHash);
      }
      return { idHash, persistent: session.persistent, expiresAt, renewed, user: found.user };
    },

    async destroy(idHash: string) {
      await repo.deleteSession(idHash);
      forgetSession(idHash);
    },
    /** Ends every session of a user, or every one but `exceptIdHash`; answers how many. */
    async destroyAllForUser(userId: string, exceptIdHash?: string) {
      const ended = await repo.deleteUserSessions(userId, exceptIdHash);
      forgetUser(userId);
      return ended;
    },
    purgeExpired: () => repo.deleteExpiredSessions(new Date()),
    /** Call after a committed change of the user row (status, name, role, deletion, ...). */
    forgetUser,
    close: () => cache?.close(),
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
