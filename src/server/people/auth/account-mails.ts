import type { Mailer } from "../../mail/mailer";
import type { MailIssuer } from "../../mail/templates";
import type { AuthRepository } from "./auth.repository";
import type { UserRow } from "./auth.table";
import { INVITATION_TTL_MS, invitationFor } from "./invitations";
import { hashSecret, newSecret } from "./tokens";

export interface AccountMailsDeps {
  repo: Pick<AuthRepository, "insertToken">;
  mailer: Mailer;
  /** The organisation feature: who mails come from (the product name until it is set). */
  issuer: { mailIssuer(): Promise<MailIssuer> };
  /** Links in emails are built from PUBLIC_URL, never from a request's Host header. */
  publicUrl: string;
  log: { error(obj: object, msg: string): void };
}

/** The mails an account change sends: invitations, and the delivery every such mail goes by. */
export function createAccountMails(deps: AccountMailsDeps) {
  /** Mail failures are logged, not thrown: the account change itself has succeeded. */
  async function deliver(message: Parameters<Mailer["send"]>[0]) {
    try {
      await deps.mailer.send(message);
    } catch (err) {
      deps.log.error({ err, to: message.to }, "could not send email");
    }
  }

  return {
    deliver,

    /** Mails a fresh single-use invitation link (only its hash is stored). */
    async sendInvitation(user: UserRow) {
      const token = newSecret();
      await deps.repo.insertToken({
        tokenHash: hashSecret(token),
        userId: user.id,
        kind: "invite",
        expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
      });
      await deliver(
        invitationFor({
          issuer: await deps.issuer.mailIssuer(),
          publicUrl: deps.publicUrl,
          email: user.email,
          name: user.name,
          token,
        }),
      );
    },
  };
}

export type AccountMails = ReturnType<typeof createAccountMails>;
