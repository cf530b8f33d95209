import type { Database, Executor } from "../../db/client";
import { INVITATION_TTL_MS } from "./invitations";
import { createLearnerAccountsRepository, type NewLearner } from "./learner-accounts.repository";
import { hashSecret, newSecret } from "./tokens";

/**
 * Learners registered by an administrator many at a time, each with an invitation to set a
 * password, as the single registration makes them: what a learners import asks of auth.
 */
export function createLearnerAccounts(db: Database) {
  return {
    /** Which of these (lower-cased) emails already have an account, of any role. */
    registeredEmails: (emails: string[]) =>
      createLearnerAccountsRepository(db).registeredEmails(emails),

    /**
     * Registers the learners in the caller's transaction, skipping emails that have an
     * account, with an invitation each: the learners created, with their invitation tokens
     * to mail once the transaction committed.
     */
    async registerIn(tx: Executor, learners: NewLearner[]) {
      const repo = createLearnerAccountsRepository(tx);
      const created = await repo.insertLearners(learners);
      const invites = created.map((user) => ({ ...user, token: newSecret() }));
      const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);
      await repo.insertInvitations(
        invites.map((i) => ({ userId: i.id, tokenHash: hashSecret(i.token), expiresAt })),
      );
      return invites;
    },
  };
}
