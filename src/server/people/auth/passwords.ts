import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/** scrypt's work factors; every stored hash carries its own, so they can evolve. */
export interface PasswordCost {
  N: number;
  r: number;
  p: number;
}

// ARCHITECTURE section 1: scrypt N=2^15, r=8, p=1, 16-byte salt, 64-byte key.
const PRODUCTION_PASSWORD_COST: PasswordCost = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 64;
// scrypt needs 128 * N * r bytes (32 MiB here); Node's default cap is exactly 32 MiB.
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, cost: PasswordCost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize("NFKC"),
      salt,
      KEY_LENGTH,
      { N: cost.N, r: cost.r, p: cost.p, maxmem: MAX_MEMORY },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

/** Constant-time check of a password against a stored hash; false for any malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  // Bad parameters in a stored hash make scrypt throw: that is a failed check, not a 500.
  const actual = await derive(password, Buffer.from(salt, "base64url"), {
    N: +n,
    r: +r,
    p: +p,
  }).catch(() => null);
  return actual !== null && actual.length === expected.length && timingSafeEqual(actual, expected);
}

export interface PasswordHasher {
  /** Hashes a password as `scrypt$N$r$p$salt$key` (base64url). */
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
  /**
   * Burns the same time as a real check, so an unknown email cannot be told apart
   * from a wrong password by timing.
   */
  verifyAgainstDummy(password: string): Promise<false>;
}

/**
 * The portal hashes at the production cost. The test harness passes a cheaper one through
 * the app's dependencies, so the suite does not spend minutes on deliberate slowness.
 */
export function createPasswordHasher(
  cost: PasswordCost = PRODUCTION_PASSWORD_COST,
): PasswordHasher {
  async function hash(password: string) {
    const salt = randomBytes(16);
    const key = await derive(password, salt, cost);
    return [
      "scrypt",
      cost.N,
      cost.r,
      cost.p,
      salt.toString("base64url"),
      key.toString("base64url"),
    ].join("$");
  }
  let dummyHash: Promise<string> | undefined;
  return {
    hash,
    verify: verifyPassword,
    async verifyAgainstDummy(password) {
      dummyHash ??= hash("credo-dummy-password");
      await verifyPassword(password, await dummyHash);
      return false;
    },
  };
}
