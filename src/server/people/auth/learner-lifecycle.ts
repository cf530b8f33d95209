import type { RegisterBody } from "../../../contract";
import type { Database, Executor } from "../../db/client";
import type { IdentityService } from "../../identity/firebase-identity";
import type { AccountMails } from "./account-mails";
import { emailTaken, learnerNotFound } from "./auth.errors";
import { type AuthRepository, createAuthRepository } from "./auth.repository";
import type { UserRow } from "./auth.table";
import type { IdentityBinding } from "./identity-binding";
import type { SessionsService } from "./sessions.service";

export interface LearnerLifecycleDeps {
  db: Database;
  repo: Pick<AuthRepository, "insertUser" | "findUserByEmail">;
  sessions: Pick<SessionsService, "forgetUser">;
  identity: IdentityService;
  mirror: IdentityBinding["mirror"];
  sendInvitation: AccountMails["sendInvitation"];
}

/**
 * A learner's account from registration to deletion: registered by an administrator or at a
 * first sign-on, invited, restricted, deleted. Restricting and deleting end the learner's
 * sessions at once and reach the identity service.
 */
export function createLearnerLifecycle(deps: LearnerLifecycleDeps) {
  const { db, repo, sessions, mirror, sendInvitation } = deps;

  /** A learner's row locked for a change in `tx`; anyone else's is not found. */
  async function lockLearner(tx: Executor, id: string) {
    const txRepo = createAuthRepository(tx);
    const user = await txRepo.lockUser(id);
    if (!user || user.role !== "learner") throw learnerNotFound();
    return { txRepo, user };
  }

  return {
    /** Pre-registers a learner (administrators only; the route checks the role). */
    async registerLearner(input: RegisterBody): Promise<UserRow> {
      const row = await repo.insertUser({
        email: input.email,
        name: input.name,
        phone: input.phone || null,
        role: "learner",
        status: "active",
        isRegisteredByAdmin: true,
        passwordSetup: false,
      });
      if (!row) throw emailTaken();
      await sendInvitation(row);
      return row;
    },

    /**
     * A learner created at their first sign-on through a provider that may create learners:
     * active and registered, with no password (they sign in through the provider).
     * `inTransaction` records the rest of that sign-on with it. Undefined when the email was
     * registered meanwhile.
     */
    async createLearnerBySignOn(
      input: { email: string; name: string; providerId: string },
      inTransaction: (tx: Executor, user: UserRow) => Promise<void>,
    ): Promise<UserRow | undefined> {
      return db.transaction(async (tx) => {
        const row = await createAuthRepository(tx).insertUser({
          email: input.email,
          name: input.name,
          role: "learner",
          status: "active",
          isRegisteredByAdmin: true,
          passwordSetup: false,
          createdBySignOn: input.providerId,
        });
        if (row) await inTransaction(tx, row);
        return row;
      });
    },

    /**
     * Mails a fresh invitation to a registered learner who has no password yet (invite
     * mode, when the setup dialog was opened without the emailed link). Silent otherwise,
     * so the answer never tells whether an email is registered.
     */
    async resendInvitation(email: string): Promise<void> {
      const user = await repo.findUserByEmail(email);
      if (!user || user.role !== "learner" || !user.isRegisteredByAdmin) return;
      if (user.passwordSetup || user.status !== "active") return;
      await sendInvitation(user);
    },

    /**
     * Restricts an active learner or lifts the restriction. Restricting ends the
     * learner's sessions in the same transaction, so it takes effect at once. `record` runs
     * in the same transaction (the audit trail).
     */
    async toggleLearnerStatus(
      id: string,
      record?: (tx: Executor, user: UserRow) => Promise<void>,
    ): Promise<UserRow> {
      const updated = await db.transaction(async (tx) => {
        const { txRepo, user } = await lockLearner(tx, id);
        const status = user.status === "active" ? "restricted" : "active";
        const row = await txRepo.updateUser(id, { status });
        if (status === "restricted") await txRepo.deleteUserSessions(id);
        await record?.(tx, row!);
        return row!;
      });
      sessions.forgetUser(updated.id);
      // Restricting disables the identity-service account (and revokes its tokens);
      // lifting the restriction enables it again.
      await mirror(`status.${updated.status}`, updated, (uid) =>
        deps.identity.setDisabled(uid, updated.status === "restricted"),
      );
      return updated;
    },

    /** Deletes a learner; their enrollments, completions, sessions and tokens cascade. */
    async deleteLearner(
      id: string,
      record?: (tx: Executor, user: UserRow) => Promise<void>,
    ): Promise<void> {
      const deleted = await db.transaction(async (tx) => {
        // Read first: the record keeps who was deleted, after the row is gone.
        const { txRepo, user } = await lockLearner(tx, id);
        if (!(await txRepo.deleteUser(id, "learner"))) throw learnerNotFound();
        await record?.(tx, user);
        return user;
      });
      sessions.forgetUser(deleted.id);
      await mirror("delete", deleted, (uid) => deps.identity.deleteUser(uid));
    },
  };
}
