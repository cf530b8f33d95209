import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Secrets the portal keeps for later use (identity providers' client secrets and keys,
 * second-factor seeds) are stored sealed with SECRETS_KEY, so a copy of the database alone
 * reveals none of them. AES-256-GCM with a random 12-byte IV; the output names its version
 * so the format can change without making stored values unreadable.
 */
const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SecretBox {
  seal(text: string): string;
  open(sealed: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error("SECRETS_KEY must be 32 bytes");
  return {
    seal(text) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
      const sealed = Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
      return `${VERSION}.${sealed}`;
    },
    open(sealed) {
      const [version, data] = sealed.split(".");
      if (version !== VERSION || !data) throw new Error("unknown sealed secret format");
      const bytes = Buffer.from(data, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const body = bytes.subarray(IV_BYTES + TAG_BYTES);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
    },
  };
}
