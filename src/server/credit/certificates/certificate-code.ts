import { randomBytes } from "node:crypto";

/** Crockford's base32: no I, L, O or U, so a code read aloud or typed is hard to get wrong. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A public verification code: 160 random bits (20 bytes) as 32 base32 characters. */
export function newCertificateCode(): string {
  const bytes = randomBytes(20);
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out;
}

/**
 * The stored form of a code as someone typed it: dashes and spaces dropped, upper case,
 * and the letters Crockford's alphabet reads as digits (O as 0, I and L as 1). Anything
 * else passes through unchanged and simply matches nothing.
 */
export function normalizeCertificateCode(input: string): string {
  return input
    .replace(/[\s-]/g, "")
    .toUpperCase()
    .replace(/O/g, "0")
    .replace(/[IL]/g, "1")
    .slice(0, 64);
}
