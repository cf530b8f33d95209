import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { buildConfig, ConfigError, resolveAdminSetupKey } from "./config";

/** The message buildConfig stops with, or a failure when it does not stop. */
function configError(env: Record<string, string>): string {
  try {
    buildConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`buildConfig accepted ${JSON.stringify(env)}`);
}

describe("buildConfig", () => {
  it("gives the embedded defaults for an empty environment", () => {
    const config = buildConfig({});
    expect(config).toMatchObject({
      env: "development",
      production: false,
      port: 5000,
      host: "0.0.0.0",
      dataDir: resolve("./data"),
      databaseUrl: undefined,
      publicUrl: "http://localhost:5000",
      publicOrigin: "http://localhost:5000",
      productName: "Credo",
      adminSetupKey: undefined,
      s3: undefined,
      smtpUrl: undefined,
      mailFrom: "Credo <no-reply@localhost>",
      firebase: undefined,
      passwordSetupMode: "open",
      trustProxy: false,
      redisUrl: undefined,
      logLevel: "info",
    });
  });

  it("treats empty variables (as in a .env file) as unset", () => {
    const config = buildConfig({ PORT: "", S3_BUCKET: "", DATABASE_URL: "", PRODUCT_NAME: "" });
    expect(config.port).toBe(5000);
    expect(config.s3).toBeUndefined();
    expect(config.databaseUrl).toBeUndefined();
    expect(config.productName).toBe("Credo");
  });

  it("derives the public URL from PORT and strips a trailing slash from PUBLIC_URL", () => {
    expect(buildConfig({ PORT: "8080" }).publicUrl).toBe("http://localhost:8080");
    // A server bound to one address is opened there, not on localhost.
    expect(buildConfig({ HOST: "192.168.1.20" }).publicUrl).toBe("http://192.168.1.20:5000");
    expect(buildConfig({ HOST: "::1", PORT: "8080" }).publicUrl).toBe("http://[::1]:8080");
    expect(buildConfig({ HOST: "::" }).publicUrl).toBe("http://localhost:5000");
    const config = buildConfig({ PUBLIC_URL: "https://lms.example.com/" });
    expect(config.publicUrl).toBe("https://lms.example.com");
    expect(config.publicOrigin).toBe("https://lms.example.com");
  });

  it("serves package content from another origin: the other loopback name by default", () => {
    expect(buildConfig({})).toMatchObject({
      contentOrigin: "http://127.0.0.1:5001",
      contentPort: 5001,
    });
    expect(buildConfig({ HOST: "127.0.0.1", PORT: "6000" })).toMatchObject({
      contentOrigin: "http://localhost:6001",
      contentPort: 6001,
    });
    expect(
      buildConfig({ PUBLIC_URL: "https://lms.example.com", CONTENT_PORT: "7000" }),
    ).toMatchObject({
      contentOrigin: "http://lms.example.com:7000",
      contentPort: 7000,
    });
    const own = buildConfig({
      PUBLIC_URL: "https://lms.example.com",
      CONTENT_URL: "https://lms-content.example.net/",
    });
    expect(own.contentOrigin).toBe("https://lms-content.example.net");
    expect(() =>
      buildConfig({
        PUBLIC_URL: "https://lms.example.com",
        CONTENT_URL: "https://lms.example.com",
      }),
    ).toThrow("CONTENT_URL must be another origin than the portal's");
  });

  it("reads every optional service when it is configured", () => {
    const config = buildConfig({
      DATABASE_URL: "postgres://u:p@db:5432/credo",
      S3_BUCKET: "videos",
      S3_ENDPOINT: "http://127.0.0.1:4569",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "secret",
      SMTP_URL: "smtp://mail:25",
      FIREBASE_PROJECT_ID: "demo",
      FIREBASE_API_KEY: "key",
      FIREBASE_AUTH_DOMAIN: "demo.firebaseapp.com",
      REDIS_URL: "redis://cache:6379",
      PRODUCT_NAME: "Acme",
    });
    expect(config.databaseUrl).toBe("postgres://u:p@db:5432/credo");
    expect(config.s3).toMatchObject({
      bucket: "videos",
      forcePathStyle: true,
      region: "us-east-1",
    });
    expect(config.firebase).toEqual({
      projectId: "demo",
      apiKey: "key",
      authDomain: "demo.firebaseapp.com",
    });
    expect(config.mailFrom).toBe("Acme <no-reply@localhost>");
    expect(config.redisUrl).toBe("redis://cache:6379");
  });

  it("defaults to invite-only password setup in production, open elsewhere", () => {
    expect(buildConfig({ NODE_ENV: "production" }).passwordSetupMode).toBe("invite");
    expect(buildConfig({ NODE_ENV: "production" }).production).toBe(true);
    expect(buildConfig({ NODE_ENV: "development" }).passwordSetupMode).toBe("open");
    expect(buildConfig({ NODE_ENV: "test" }).passwordSetupMode).toBe("open");
    expect(
      buildConfig({ NODE_ENV: "production", PASSWORD_SETUP_MODE: "open" }).passwordSetupMode,
    ).toBe("open");
    expect(buildConfig({ PASSWORD_SETUP_MODE: "invite" }).passwordSetupMode).toBe("invite");
  });

  it.each([
    ["NODE_ENV", "staging"],
    ["PORT", "not-a-port"],
    ["PORT", "70000"],
    ["DATABASE_URL", "mysql://localhost/credo"],
    ["PUBLIC_URL", "not a url"],
    ["PRODUCT_NAME", "x".repeat(61)],
    ["PRODUCT_NAME", "   "],
    ["ADMIN_SETUP_KEY", "short"],
    ["S3_ENDPOINT", "not a url"],
    ["S3_FORCE_PATH_STYLE", "maybe"],
    ["SMTP_URL", "http://mail.example.com"],
    ["MAIL_FROM", "a"],
    ["PASSWORD_SETUP_MODE", "closed"],
    ["TRUST_PROXY", "true"],
    ["TRUST_PROXY", "nonsense"],
    ["TRUST_PROXY", "10.0.0.1, proxy.internal"],
    ["TRUST_PROXY", "10.0.0.0/99"],
    ["REDIS_URL", "http://cache"],
    ["LOG_LEVEL", "loud"],
    ["MAX_EVENT_LOOP_DELAY_MS", "soon"],
    ["MAX_EVENT_LOOP_DELAY_MS", "-1"],
  ])("stops with one line naming %s for the bad value %j", (name, value) => {
    const message = configError({ [name]: value });
    expect(message).toMatch(new RegExp(`^Invalid configuration: ${name}\\b`));
    expect(message).not.toContain("\n");
  });

  it("names the missing partner variables of S3 and Firebase", () => {
    const s3 = configError({ S3_BUCKET: "videos", S3_ACCESS_KEY_ID: "id" });
    expect(s3).toContain("S3_SECRET_ACCESS_KEY");
    expect(s3).not.toContain("\n");
    const firebase = configError({ FIREBASE_PROJECT_ID: "demo" });
    expect(firebase).toContain("FIREBASE_API_KEY");
    expect(firebase).not.toContain("\n");
  });

  it("refuses TRUST_PROXY=true, which would trust any client's X-Forwarded-For", () => {
    expect(configError({ TRUST_PROXY: "true" })).toContain("not 'true'");
  });

  it("accepts a hop count or a list of proxy addresses that Fastify understands", () => {
    const hops = buildConfig({ TRUST_PROXY: "1" }).trustProxy;
    expect(typeof hops).toBe("function");
    const trust = hops as (address: string, hop: number) => boolean;
    expect(trust("10.0.0.1", 0)).toBe(true);
    expect(trust("10.0.0.1", 1)).toBe(false);
    const list = buildConfig({
      TRUST_PROXY: "10.0.0.1, 10.1.0.0/16,loopback, ::1, fd00::/8",
    }).trustProxy;
    expect(list).toEqual(["10.0.0.1", "10.1.0.0/16", "loopback", "::1", "fd00::/8"]);
    // Whatever the config accepts, Fastify must accept too.
    expect(() => Fastify({ trustProxy: list as string[] })).not.toThrow();
  });
});

describe("resolveAdminSetupKey", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "credo-config-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("uses ADMIN_SETUP_KEY when set, and writes no file", () => {
    const dir = tempDir();
    const config = buildConfig({ DATA_DIR: dir, ADMIN_SETUP_KEY: "a-long-enough-key" });
    expect(resolveAdminSetupKey(config)).toEqual({ key: "a-long-enough-key", generated: false });
    expect(() => statSync(join(dir, "admin-setup-key"))).toThrow();
  });

  it("generates a key on first start, keeps it private in DATA_DIR, and reuses it", () => {
    const dir = join(tempDir(), "nested", "data");
    const config = buildConfig({ DATA_DIR: dir });
    const first = resolveAdminSetupKey(config);
    expect(first.generated).toBe(true);
    expect(first.key).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const file = join(dir, "admin-setup-key");
    expect(readFileSync(file, "utf8").trim()).toBe(first.key);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A restart reuses the key and does not print it again.
    expect(resolveAdminSetupKey(config)).toEqual({ key: first.key, generated: false });
  });

  it("trims the stored key file", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "admin-setup-key"), "  stored-key-value  \n");
    expect(resolveAdminSetupKey(buildConfig({ DATA_DIR: dir }))).toEqual({
      key: "stored-key-value",
      generated: false,
    });
  });

  it("never generates a key in production: admin setup needs ADMIN_SETUP_KEY there", () => {
    const dir = tempDir();
    const config = buildConfig({ NODE_ENV: "production", DATA_DIR: dir });
    expect(resolveAdminSetupKey(config)).toEqual({ key: undefined, generated: false });
    expect(() => statSync(join(dir, "admin-setup-key"))).toThrow();
  });
});
