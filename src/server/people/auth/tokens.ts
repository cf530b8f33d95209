import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** 256 random bits, URL-safe: session ids and emailed tokens. */
export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** Only this digest is stored, so the database never holds a usable secret. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** Compares two strings in constant time (by their digests, so lengths may differ). */
export function safeEqual(a: string, b: string): boolean {
  const da = createHash("sha256").update(a).digest();
  const db = createHash("sha256").update(b).digest();
  return timingSafeEqual(da, db);
}
