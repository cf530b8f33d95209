import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
  /** Quoted-printable soft breaks removed, so links can be read whole. */
  body: string;
}

export interface TestSmtp {
  url: string;
  mails: ReceivedMail[];
  /** Resolves with the first mail to `to` that arrives (polls briefly). */
  waitFor(to: string, predicate?: (mail: ReceivedMail) => boolean): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives (mailparser does not install here). */
export async function startTestSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const subject = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? "";
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject,
          body: decodeQuotedPrintable(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(to, predicate = () => true) {
      for (let i = 0; i < 100; i++) {
        const mail = mails.find((m) => m.to.includes(to) && predicate(m));
        if (mail) return mail;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no mail to ${to} arrived`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`${escaped}[^\\s"<>]*`).exec(mail.body);
  if (!match) throw new Error(`no link starting ${prefix} in mail "${mail.subject}"`);
  return match[0].replaceAll("&amp;", "&");
}
