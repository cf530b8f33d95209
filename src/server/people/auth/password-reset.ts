import type { Database } from "../../db/client";
import type { IdentityService } from "../../identity/firebase-identity";
import { type MailIssuer, passwordResetMail } from "../../mail/templates";
import type { AccountMails } from "./account-mails";
import { invalidResetLink } from "./auth.errors";
import { type AuthRepository, createAuthRepository } from "./auth.repository";
import type { UserRow } from "./auth.table";
import type { IdentityBinding } from "./identity-binding";
import type { PasswordHasher } from "./passwords";
import type { SessionsService } from "./sessions.service";
import type { SignInHandOver } from "./sign-in-hand-over";
import { assertMaySignIn } from "./sign-in-rules";
import { hashSecret, newSecret } from "./tokens";

const RESET_TTL_MS = 60 * 60 * 1000;
export const RESET_MAILS_PER_HOUR = 3;

export interface PasswordResetDeps {
  db: Database;
  repo: Pick<AuthRepository, "findUserByEmail">;
  passwords: PasswordHasher;
  sessions: Pick<SessionsService, "forgetUser">;
  identity: IdentityService;
  mirror: IdentityBinding["mirror"];
  deliver: AccountMails["deliver"];
  issuer: { mailIssuer(): Promise<MailIssuer> };
  publicUrl: string;
  handOver?: Pick<SignInHandOver, "endPending">;
}

/** A forgotten password: a one-hour, single-use link by mail, and the password it sets. */
export function createPasswordReset(deps: PasswordResetDeps) {
  const { db, repo } = deps;
  return {
    /**
     * Mails a one-hour, single-use reset link when the account exists; silent otherwise.
     * At most RESET_MAILS_PER_HOUR reach one mailbox in an hour, so the form cannot be used
     * to flood it; the answer is the same either way.
     */
    async request(email: string): Promise<void> {
      const user = await repo.findUserByEmail(email);
      if (!user || !user.passwordSetup) return;
      if (user.role === "learner" && user.status !== "active") return;
      const token = newSecret();
      const issued = await db.transaction((tx) =>
        createAuthRepository(tx).insertTokenCapped(
          {
            tokenHash: hashSecret(token),
            userId: user.id,
            kind: "reset",
            expiresAt: new Date(Date.now() + RESET_TTL_MS),
          },
          { max: RESET_MAILS_PER_HOUR, since: new Date(Date.now() - 60 * 60 * 1000) },
        ),
      );
      if (!issued) return;
      await deps.deliver(
        passwordResetMail({
          issuer: await deps.issuer.mailIssuer(),
          to: user.email,
          name: user.name,
          link: `${deps.publicUrl}/reset-password?${new URLSearchParams({ token })}`,
        }),
      );
    },

    /** Sets a new password from a reset link and ends every session of the account. */
    async confirm(input: { token: string; password: string }): Promise<UserRow> {
      const passwordHash = await deps.passwords.hash(input.password);
      const user = await db.transaction(async (tx) => {
        const txRepo = createAuthRepository(tx);
        const token = await txRepo.consumeToken(hashSecret(input.token), "reset", new Date());
        if (!token) throw invalidResetLink();
        const found = await txRepo.findUserById(token.userId);
        if (!found) throw invalidResetLink();
        assertMaySignIn(found);
        const row = await txRepo.updateUser(found.id, { passwordHash, passwordSetup: true });
        await txRepo.deleteUserSessions(found.id);
        await deps.handOver?.endPending(tx, found.id);
        // Other reset links sent before this one must not set the password again.
        await txRepo.retireTokens(found.id, "reset", new Date());
        return row!;
      });
      deps.sessions.forgetUser(user.id);
      await deps.mirror("password.reset", user, (uid) =>
        deps.identity.updatePassword(uid, input.password),
      );
      return user;
    },
  };
}
