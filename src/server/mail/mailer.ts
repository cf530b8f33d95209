import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import nodemailer from "nodemailer";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The action link, logged for the outbox so a developer can follow it. */
  link?: string;
  /** Files sent with the message (a certificate's PDF). */
  attachments?: MailAttachment[];
  /** Extra headers (List-Unsubscribe on reminders). */
  headers?: Record<string, string>;
  /** The sender's display name (the organisation's), in place of MAIL_FROM's. */
  fromName?: string;
}

interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/** The address of MAIL_FROM ("Credo <no-reply@example.com>" or a bare address). */
const addressOf = (from: string) => /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from.trim();

/** What nodemailer is handed, the same for SMTP and the outbox. */
const envelopeOf = (from: string, message: MailMessage) => ({
  // nodemailer quotes and encodes the name: an organisation's name may hold any character.
  from: message.fromName ? { name: message.fromName, address: addressOf(from) } : from,
  to: message.to,
  subject: message.subject,
  text: message.text,
  html: message.html,
  ...(message.attachments?.length ? { attachments: message.attachments } : {}),
  ...(message.headers ? { headers: message.headers } : {}),
});

export interface Mailer {
  readonly kind: "smtp" | "outbox";
  send(message: MailMessage): Promise<void>;
  close(): void;
}

interface Logger {
  info(obj: object, msg: string): void;
}

/** SMTP through nodemailer when SMTP_URL is set. */
export function createSmtpMailer(options: { url: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(options.url);
  return {
    kind: "smtp",
    async send(message) {
      await transport.sendMail(envelopeOf(options.from, message));
    },
    close: () => transport.close(),
  };
}

/**
 * Without SMTP, each message becomes an .eml file in DATA_DIR/outbox (open it in any mail
 * program) and one log line with its link, so invitations and resets work out of the box.
 */
export function createOutboxMailer(options: {
  dir: string;
  from: string;
  log: Logger;
  /** Off in production: a link carries a single-use token, which logs must never hold. */
  logLinks?: boolean;
  /** Stamps the file names; tests pass a fixed clock. */
  now?: () => Date;
}): Mailer {
  const now = options.now ?? (() => new Date());
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    kind: "outbox",
    async send(message) {
      const info = await transport.sendMail(envelopeOf(options.from, message));
      mkdirSync(options.dir, { recursive: true });
      // Time first, so names sort by sending; a random part and an exclusive create, so two
      // mails to one address in the same millisecond never overwrite each other.
      const stamp = now().toISOString().replace(/[:.]/g, "-");
      const recipient = message.to.replace(/[^a-z0-9@._-]/gi, "_");
      let file = "";
      for (;;) {
        file = join(options.dir, `${stamp}-${randomBytes(4).toString("hex")}-${recipient}.eml`);
        try {
          writeFileSync(file, info.message as Buffer, { mode: 0o600, flag: "wx" });
          break;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
        }
      }
      const link = options.logLinks === false ? undefined : message.link;
      options.log.info({ to: message.to, file, link }, `mail: ${message.subject}`);
    },
    close: () => transport.close(),
  };
}
