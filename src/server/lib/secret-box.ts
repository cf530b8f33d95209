import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/** The sealed form's version: a later algorithm gets a new prefix and old values still open. */
const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Secrets the portal must read back (authenticator-app seeds, identity providers' client
 * secrets) are stored sealed with AES-256-GCM under SECRETS_KEY, so a copy of the database
 * alone yields none of them. `seal` uses a fresh random IV each time; `open` refuses any
 * value that was altered or sealed under another key.
 */
export function createSecretBox(key: Buffer) {
  if (key.length !== 32) throw new Error("A secret box needs a 32-byte key");
  return {
    seal(text: string): string {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
      return [VERSION, iv, sealed, cipher.getAuthTag()]
        .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
        .join(".");
    },
    open(sealed: string): string {
      const [version, iv, data, tag, ...rest] = sealed.split(".");
      if (version !== VERSION || !iv || data === undefined || !tag || rest.length > 0) {
        throw new Error("Not a sealed secret");
      }
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([
        decipher.update(Buffer.from(data, "base64url")),
        decipher.final(),
      ]).toString("utf8");
    },
  };
}

export type SecretBox = ReturnType<typeof createSecretBox>;
