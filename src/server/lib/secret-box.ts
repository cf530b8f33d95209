import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Seals credentials the portal must send on to another system (a regulator's password, an
 * upload key) so the database never holds them readable: AES-256-GCM under the portal's
 * secrets key, a random 12-byte IV per seal. A sealed text is `iv.tag.ciphertext`, each part
 * base64url; opening a text sealed under another key, or altered, throws.
 */
export function createSecretBox(key: Buffer) {
  if (key.length !== 32) throw new Error("The secrets key must be 32 bytes");
  return {
    seal(text: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
      return [iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url")).join(".");
    },
    open(sealed: string): string {
      const [iv, tag, body] = sealed.split(".").map((part) => Buffer.from(part, "base64url"));
      if (!iv || !tag || !body || iv.length !== 12) throw new Error("Not a sealed secret");
      const decipher = createDecipheriv("aes-256-gcm", key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
    },
  };
}

export type SecretBox = ReturnType<typeof createSecretBox>;
