import { inArray } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { authTokens, users } from "./auth.table";

/** Emails per lookup: a 10,000-row file asks in a few statements, each well under the bind limit. */
const LOOKUP_CHUNK = 1000;

export interface NewLearner {
  name: string;
  email: string;
  phone: string | null;
}

/**
 * Learners' accounts registered many at a time (a learners import): one statement per table
 * and batch, whatever the batch's size. Pass the batch's transaction.
 */
export function createLearnerAccountsRepository(db: Executor) {
  return {
    /** Which of these (lower-cased) emails already have an account, of any role. */
    async registeredEmails(emails: string[]): Promise<Set<string>> {
      const found = new Set<string>();
      const unique = [...new Set(emails)];
      for (let i = 0; i < unique.length; i += LOOKUP_CHUNK) {
        const rows = await db
          .select({ email: users.email })
          .from(users)
          .where(inArray(users.email, unique.slice(i, i + LOOKUP_CHUNK)));
        for (const row of rows) found.add(row.email);
      }
      return found;
    },

    /**
     * Registers learners exactly as an administrator's single registration does (active,
     * registered by an administrator, no password yet) in one insert. An email that has an
     * account, before or concurrently, is skipped by the unique key: the answer holds only
     * the learners this statement created.
     */
    async insertLearners(learners: NewLearner[]) {
      if (!learners.length) return [];
      return db
        .insert(users)
        .values(
          learners.map((l) => ({
            name: l.name,
            email: l.email,
            phone: l.phone,
            role: "learner" as const,
            status: "active" as const,
            isRegisteredByAdmin: true,
            passwordSetup: false,
          })),
        )
        .onConflictDoNothing({ target: users.email })
        .returning({ id: users.id, email: users.email, name: users.name });
    },

    /** The invitation tokens (their hashes) of a batch, in one insert. */
    async insertInvitations(tokens: { userId: string; tokenHash: string; expiresAt: Date }[]) {
      if (!tokens.length) return;
      await db.insert(authTokens).values(tokens.map((t) => ({ ...t, kind: "invite" as const })));
    },
  };
}
