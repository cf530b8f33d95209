import {
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP,
  LOGIN_WINDOW_MS,
} from "../../../contract";
import type { Database } from "../../db/client";
import { tooManyLoginAttempts } from "./auth.errors";
import { createAuthRepository } from "./auth.repository";

/**
 * Sign-in throttling kept in the database so every instance shares the count:
 * 10 failures per account and address, 20 per account, in a 5-minute window.
 * Other accounts behind the same address are unaffected.
 */
export function createLoginThrottle({ db }: { db: Database }) {
  const repo = createAuthRepository(db);

  return {
    /**
     * Records the attempt as a failure *before* the password is checked, then counts:
     * a count taken before recording would let a burst of concurrent guesses all pass.
     * Throws 429 (with Retry-After) when the account, or the account from this address,
     * is over its limit; the refused attempt is withdrawn, so it adds nothing.
     * Returns the attempt's id: it stays a failure unless the sign-in succeeds
     * (`recordSuccess`) or the password proves right (`withdraw`).
     */
    async beginAttempt(email: string, ip: string): Promise<string> {
      const id = await repo.insertLoginFailure(email, ip);
      const since = new Date(Date.now() - LOGIN_WINDOW_MS);
      const [fromIp, total] = await Promise.all([
        repo.countLoginFailures(email, since, ip),
        repo.countLoginFailures(email, since),
      ]);
      const limitedByIp = fromIp > LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP;
      if (!limitedByIp && total <= LOGIN_MAX_FAILURES_PER_ACCOUNT) return id;
      await repo.deleteLoginFailure(id);
      const oldest = await repo.oldestLoginFailure(email, since, limitedByIp ? ip : undefined);
      const freeAt = (oldest?.getTime() ?? Date.now()) + LOGIN_WINDOW_MS;
      throw tooManyLoginAttempts((freeAt - Date.now()) / 1000);
    },

    /** The attempt failed: it stays counted. Cheap upkeep keeps one window's worth of rows. */
    async recordFailure(): Promise<void> {
      await repo.purgeLoginFailures(new Date(Date.now() - LOGIN_WINDOW_MS));
    },

    /** The password was right but sign-in was refused for another reason: not a guess. */
    withdraw: (attemptId: string) => repo.deleteLoginFailure(attemptId),

    /** A successful sign-in forgives this address's failures for the account. */
    recordSuccess: (email: string, ip: string) => repo.clearLoginFailures(email, ip),
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
