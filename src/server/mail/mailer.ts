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
}

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
      await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
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
}): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    kind: "outbox",
    async send(message) {
      const info = await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      mkdirSync(options.dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const file = join(options.dir, `${stamp}-${message.to.replace(/[^a-z0-9@._-]/gi, "_")}.eml`);
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      const link = options.logLinks === false ? undefined : message.link;
      options.log.info({ to: message.to, file, link }, `mail: ${message.subject}`);
    },
    close: () => transport.close(),
  };
}
