import { createHash } from "node:crypto";
import type { ActiveSession } from "../../../contract";
import type { Database } from "../../db/client";
import { sessionIsCurrent, sessionNotFound } from "./auth.errors";
import { createAuthRepository } from "./auth.repository";
import type { SessionsService } from "./sessions.service";
import type { SignInHandOver } from "./sign-in-hand-over";

/**
 * A session's handle on Profile. The session's key is the hash of its cookie, which never
 * leaves the server: the handle is derived from it and names the session to its owner only.
 */
const sessionHandle = (idHash: string) =>
  createHash("sha256").update(`session-handle:${idHash}`).digest("base64url").slice(0, 22);

/**
 * The signed-in user's own sessions: each browser or device signed in as them, listed so
 * that one left signed in elsewhere (a shared computer, a lost phone) can be ended from here.
 */
export function createOwnSessions({
  db,
  sessions,
  handOver,
  now = () => new Date(),
}: {
  db: Database;
  sessions: Pick<SessionsService, "destroy" | "destroyAllForUser">;
  /** Sign-ins still waiting for their second step end with the other sessions. */
  handOver?: Pick<SignInHandOver, "endPending">;
  now?: () => Date;
}) {
  const repo = createAuthRepository(db);

  return {
    async list(userId: string, currentIdHash: string): Promise<ActiveSession[]> {
      const rows = await repo.userSessions(userId, now());
      return rows.map((row) => ({
        id: sessionHandle(row.idHash),
        current: row.idHash === currentIdHash,
        userAgent: row.userAgent,
        ip: row.ip,
        signedInAt: row.createdAt.toISOString(),
        expiresAt: row.expiresAt.toISOString(),
        persistent: row.persistent,
      }));
    },

    /** Ends one of the user's other sessions; the current one ends by logging out. */
    async end(userId: string, handle: string, currentIdHash: string) {
      const rows = await repo.userSessions(userId, now());
      const found = rows.find((row) => sessionHandle(row.idHash) === handle);
      if (!found) throw sessionNotFound();
      if (found.idHash === currentIdHash) throw sessionIsCurrent();
      await sessions.destroy(found.idHash);
    },

    /** Ends every session of the user but the current one; answers how many ended. */
    async endOthers(userId: string, currentIdHash: string) {
      const ended = await sessions.destroyAllForUser(userId, currentIdHash);
      await handOver?.endPending(db, userId);
      return ended;
    },
  };
}

export type OwnSessions = ReturnType<typeof createOwnSessions>;
