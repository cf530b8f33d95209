import type { MailMessage } from "../../mail/mailer";
import { invitationMail, type MailIssuer } from "../../mail/templates";

/** How long an invitation works, whether an administrator registered one learner or imported many. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The invitation email, whose link opens the setup dialog for this account. */
export function invitationFor(input: {
  issuer: MailIssuer;
  publicUrl: string;
  email: string;
  name: string;
  token: string;
  /** The courses the learner was enrolled in with the account, named in the mail. */
  courseTitles?: string[];
}): MailMessage {
  const query = new URLSearchParams({ setup: "1", email: input.email, token: input.token });
  return invitationMail({
    issuer: input.issuer,
    to: input.email,
    name: input.name,
    link: `${input.publicUrl}/?${query}`,
    expiresInDays: INVITATION_TTL_MS / 86_400_000,
    courseTitles: input.courseTitles,
  });
}
