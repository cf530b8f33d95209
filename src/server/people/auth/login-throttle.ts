import {
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP,
  LOGIN_WINDOW_MS,
} from "../../../contract";
import type { Database } from "../../db/client";
import { tooManyLoginAttempts } from "./auth.errors";
import { createAuthRepository } from "./auth.repository";

/**
 * Sign-in throttling kept in the database so every instance shares the count, in a 5-minute
 * window. A browser the owner signed in with before (a device cookie, device-cookies.ts)
 * has its own budget of 10 failures and is never held back by failures elsewhere. Every
 * other attempt counts per account and address (10) and per account from all addresses
 * (20): guesses from elsewhere can hold new browsers back for the account, for 5 minutes
 * after the last of them, but never the owner's own browser.
 */
export function createLoginThrottle({ db }: { db: Database }) {
  const repo = createAuthRepository(db);

  return {
    /**
     * Records the attempt as a failure *before* the password is checked, then counts:
     * a count taken before recording would let a burst of concurrent guesses all pass.
     * Throws 429 (with Retry-After) when the attempt's budget is spent; the refused attempt
     * is withdrawn, so it adds nothing. `device` is a verified device cookie's nonce.
     * Returns the attempt's id: it stays a failure unless the sign-in succeeds
     * (`recordSuccess`) or the password proves right (`withdraw`).
     */
    async beginAttempt(email: string, ip: string, device?: string | null): Promise<string> {
      const source = device ? `device:${device}` : ip;
      const id = await repo.insertLoginFailure(email, source);
      const since = new Date(Date.now() - LOGIN_WINDOW_MS);
      const [fromSource, untrusted] = await Promise.all([
        repo.countLoginFailures(email, since, source),
        device ? 0 : repo.countLoginFailures(email, since, undefined, { untrustedOnly: true }),
      ]);
      const limitedBySource = fromSource > LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP;
      if (!limitedBySource && untrusted <= LOGIN_MAX_FAILURES_PER_ACCOUNT) return id;
      await repo.deleteLoginFailure(id);
      const oldest = await repo.oldestLoginFailure(
        email,
        since,
        limitedBySource ? source : undefined,
      );
      const freeAt = (oldest?.getTime() ?? Date.now()) + LOGIN_WINDOW_MS;
      throw tooManyLoginAttempts((freeAt - Date.now()) / 1000);
    },

    /** The attempt failed: it stays counted. Cheap upkeep keeps one window's worth of rows. */
    async recordFailure(): Promise<void> {
      await repo.purgeLoginFailures(new Date(Date.now() - LOGIN_WINDOW_MS));
    },

    /** The password was right but sign-in was refused for another reason: not a guess. */
    withdraw: (attemptId: string) => repo.deleteLoginFailure(attemptId),

    /** A successful sign-in forgives this address's (or device's) failures for the account. */
    recordSuccess: (email: string, ip: string, device?: string | null) =>
      repo.clearLoginFailures(email, device ? `device:${device}` : ip),
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
