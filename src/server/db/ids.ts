import { randomBytes } from "node:crypto";

/** Server-generated ids: 128 random bits, URL-safe, not guessable. */
export function newId(): string {
  return randomBytes(16).toString("base64url");
}
