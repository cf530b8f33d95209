import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

// ARCHITECTURE section 1: scrypt N=2^15, r=8, p=1, 16-byte salt, 64-byte key.
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;
// scrypt needs 128 * N * r bytes (32 MiB here); Node's default cap is exactly 32 MiB.
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize("NFKC"),
      salt,
      KEY_LENGTH,
      { N: n, r, p, maxmem: MAX_MEMORY },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

/** Hashes a password as `scrypt$N$r$p$salt$key` (base64url), so parameters can evolve. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return ["scrypt", N, R, P, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** Constant-time check of a password against a stored hash; false for any malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  // Bad parameters in a stored hash make scrypt throw: that is a failed check, not a 500.
  const actual = await derive(password, Buffer.from(salt, "base64url"), +n, +r, +p).catch(
    () => null,
  );
  return actual !== null && actual.length === expected.length && timingSafeEqual(actual, expected);
}

let dummyHash: Promise<string> | undefined;
/**
 * Burns the same time as a real check, so an unknown email cannot be told apart
 * from a wrong password by timing.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword("credo-dummy-password");
  await verifyPassword(password, await dummyHash);
  return false;
}
