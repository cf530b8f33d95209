import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildConfig, resolveSecretsKey } from "../config";
import { createSecretBox } from "./secret-box";

describe("the secret box", () => {
  it("opens what it sealed, with a fresh IV each time, and refuses a changed or foreign value", () => {
    const box = createSecretBox(randomBytes(32));
    const sealed = box.seal("JBSWY3DPEHPK3PXP");
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP");
    expect(box.seal("JBSWY3DPEHPK3PXP")).not.toBe(sealed);
    expect(box.open(sealed)).toBe("JBSWY3DPEHPK3PXP");
    const [version, iv, data, tag] = sealed.split(".");
    const flipped = Buffer.from(data!, "base64url");
    flipped[0]! ^= 1;
    expect(() => box.open([version, iv, flipped.toString("base64url"), tag].join("."))).toThrow();
    expect(() => createSecretBox(randomBytes(32)).open(sealed)).toThrow();
    expect(() => box.open("plain text")).toThrow("Not a sealed secret");
  });

  it("takes SECRETS_KEY, else generates one into DATA_DIR outside production only", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "credo-secrets-"));
    try {
      const key = randomBytes(32).toString("base64");
      expect(resolveSecretsKey(buildConfig({ DATA_DIR: dataDir, SECRETS_KEY: key }))).toEqual(
        Buffer.from(key, "base64"),
      );
      expect(() => buildConfig({ SECRETS_KEY: "too-short" })).toThrow(
        "Invalid configuration: SECRETS_KEY must be 32 bytes in base64",
      );
      const generated = resolveSecretsKey(buildConfig({ DATA_DIR: dataDir }));
      expect(generated).toHaveLength(32);
      expect(statSync(join(dataDir, "secrets-key")).mode & 0o777).toBe(0o600);
      expect(resolveSecretsKey(buildConfig({ DATA_DIR: dataDir }))).toEqual(generated);
      expect(
        resolveSecretsKey(buildConfig({ DATA_DIR: dataDir, NODE_ENV: "production" })),
      ).toBeUndefined();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
