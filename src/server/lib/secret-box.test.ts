import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildConfig, ConfigError, resolveSecretsKey } from "../config";
import { createSecretBox } from "./secret-box";

const key = Buffer.alloc(32, 7);

describe("the secret box", () => {
  it("seals to a versioned text that opens to the original, differently each time", () => {
    const box = createSecretBox(key);
    const sealed = box.seal("client-secret");
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain("client-secret");
    expect(box.seal("client-secret")).not.toBe(sealed);
    expect(box.open(sealed)).toBe("client-secret");
  });

  it("refuses a changed text, another key and an unknown version", () => {
    const sealed = createSecretBox(key).seal("client-secret");
    const flipped = `${sealed.slice(0, -2)}${sealed.endsWith("A") ? "B" : "A"}${sealed.slice(-1)}`;
    expect(() => createSecretBox(key).open(flipped)).toThrow();
    expect(() => createSecretBox(Buffer.alloc(32, 8)).open(sealed)).toThrow();
    expect(() => createSecretBox(key).open(`v9.${sealed.slice(3)}`)).toThrow(/format/);
    expect(() => createSecretBox(Buffer.alloc(16))).toThrow(/32 bytes/);
  });
});

describe("resolveSecretsKey", () => {
  let dir = "";
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("uses SECRETS_KEY, and refuses one that is not 32 bytes", () => {
    const value = key.toString("base64");
    expect(resolveSecretsKey(buildConfig({ SECRETS_KEY: value }))).toEqual(key);
    expect(() => buildConfig({ SECRETS_KEY: "c2hvcnQ=" })).toThrow(ConfigError);
  });

  it("generates one into DATA_DIR outside production and reuses it; production has none", () => {
    dir = mkdtempSync(join(tmpdir(), "credo-secrets-"));
    const config = buildConfig({ DATA_DIR: dir });
    const first = resolveSecretsKey(config);
    expect(first).toHaveLength(32);
    expect(readFileSync(join(dir, "secrets-key"), "utf8").trim()).toBe(first?.toString("base64"));
    expect(resolveSecretsKey(config)).toEqual(first);
    const production = buildConfig({
      NODE_ENV: "production",
      DATA_DIR: dir,
      PUBLIC_URL: "https://learn.example.com",
      CONTENT_URL: "https://content.example.net",
    });
    expect(resolveSecretsKey(production)).toBeUndefined();
  });
});
