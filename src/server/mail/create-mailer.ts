import { join } from "node:path";
import type { Config } from "../config";
import { createOutboxMailer, createSmtpMailer, type Mailer } from "./mailer";

/** SMTP when SMTP_URL is set, else the .eml outbox in DATA_DIR/outbox. */
export function createMailer(
  config: Pick<Config, "smtpUrl" | "mailFrom" | "dataDir"> & { production?: boolean },
  log: { info(obj: object, msg: string): void },
): Mailer {
  return config.smtpUrl
    ? createSmtpMailer({ url: config.smtpUrl, from: config.mailFrom })
    : createOutboxMailer({
        dir: join(config.dataDir, "outbox"),
        from: config.mailFrom,
        log,
        logLinks: !config.production,
      });
}
