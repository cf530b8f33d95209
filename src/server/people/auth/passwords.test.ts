import { describe, expect, it } from "vitest";
import { createPasswordHasher, verifyPassword } from "./passwords";

// The production cost, as the portal runs it.
const { hash: hashPassword, verifyAgainstDummy } = createPasswordHasher();

describe("password hashing", () => {
  it("stores scrypt with its parameters, a 16-byte salt and a 64-byte key", async () => {
    const hash = await hashPassword("correct horse");
    const [scheme, n, r, p, salt, key, ...rest] = hash.split("$");
    expect(scheme).toBe("scrypt");
    expect([n, r, p]).toEqual(["32768", "8", "1"]);
    expect(Buffer.from(salt!, "base64url")).toHaveLength(16);
    expect(Buffer.from(key!, "base64url")).toHaveLength(64);
    expect(rest).toEqual([]);
    expect(hash).not.toContain("correct horse");
  });

  it("salts every hash: the same password hashes differently each time", async () => {
    const [a, b] = await Promise.all([
      hashPassword("same password"),
      hashPassword("same password"),
    ]);
    expect(a).not.toBe(b);
    expect(await verifyPassword("same password", a)).toBe(true);
    expect(await verifyPassword("same password", b)).toBe(true);
  });

  it("accepts the right password and refuses a wrong one", async () => {
    const hash = await hashPassword("correct horse");
    expect(await verifyPassword("correct horse", hash)).toBe(true);
    expect(await verifyPassword("correct horsE", hash)).toBe(false);
    expect(await verifyPassword("correct horse ", hash)).toBe(false);
    expect(await verifyPassword("", hash)).toBe(false);
  });

  it("does not truncate long passwords (unlike bcrypt's 72 bytes)", async () => {
    const prefix = "x".repeat(72);
    expect(Buffer.byteLength(prefix)).toBe(72);
    const hash = await hashPassword(`${prefix}-first`);
    expect(await verifyPassword(`${prefix}-first`, hash)).toBe(true);
    expect(await verifyPassword(`${prefix}-other`, hash)).toBe(false);
    expect(await verifyPassword(prefix, hash)).toBe(false);
  });

  it("handles non-ASCII passwords, equal under Unicode normalisation", async () => {
    const composed = "caf\u00e9-\u00fcber-\u5bc6\u7801";
    const decomposed = composed.normalize("NFD");
    expect(decomposed).not.toBe(composed);
    const hash = await hashPassword(composed);
    expect(await verifyPassword(decomposed, hash)).toBe(true);
    expect(await verifyPassword("cafe-uber-\u5bc6\u7801", hash)).toBe(false);
  });

  it("answers false, never throws, for a malformed stored hash", async () => {
    const good = await hashPassword("pw-123456");
    const [, , , , salt, key] = good.split("$");
    for (const stored of [
      "",
      "not-a-hash",
      `bcrypt$32768$8$1$${salt}$${key}`,
      `scrypt$32768$8$1$${salt}`,
      `scrypt$3$8$1$${salt}$${key}`,
      `scrypt$abc$8$1$${salt}$${key}`,
      `scrypt$32768$8$1$${salt}$${key!.slice(0, 10)}`,
    ]) {
      await expect(verifyPassword("pw-123456", stored), stored).resolves.toBe(false);
    }
  });

  it("the dummy check for unknown accounts always fails", async () => {
    expect(await verifyAgainstDummy("credo-dummy-password")).toBe(false);
    expect(await verifyAgainstDummy("anything")).toBe(false);
  });
});
