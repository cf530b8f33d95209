import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { join, resolve } from "node:path";
import { z } from "zod";

const boolish = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  EMBEDDED_DATABASE: z.enum(["postgres", "pglite"]).optional(),
  PUBLIC_URL: z.url().optional(),
  CONTENT_URL: z.url().optional(),
  CONTENT_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  PRODUCT_NAME: z.string().trim().min(1).max(60).default("Credo"),
  ADMIN_SETUP_KEY: z.string().min(12, "must be at least 12 characters").optional(),
  SECRETS_KEY: z
    .string()
    .refine(
      (v) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(v) && Buffer.from(v, "base64").length === 32,
      "must be 32 bytes in base64 (openssl rand -base64 32)",
    )
    .optional(),
  S3_BUCKET: z.string().min(1).optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: boolish.optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  FIREBASE_PROJECT_ID: z.string().min(1).optional(),
  FIREBASE_API_KEY: z.string().min(1).optional(),
  FIREBASE_AUTH_DOMAIN: z.string().min(1).optional(),
  FIREBASE_AUTH_EMULATOR_HOST: z
    .string()
    .regex(/^[\w.-]+:\d{1,5}$/, "must be host:port")
    .optional(),
  PASSWORD_SETUP_MODE: z.enum(["open", "invite"]).optional(),
  TRUST_PROXY: z.string().min(1).optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must start with redis:// or rediss://")
    .optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  REMINDER_INTERVAL_MINUTES: z.coerce.number().int().min(0).max(1_440).default(60),
});

export type Config = ReturnType<typeof buildConfig>;

/**
 * The host a browser should open when PUBLIC_URL is unset: the address the server listens
 * on when HOST names one, localhost when it listens on every address.
 */
function browsableHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "localhost";
  return isIP(host) === 6 ? `[${host}]` : host;
}

/**
 * The host package content is served on when CONTENT_URL is unset. Browsers keep cookies
 * by host name, not by port, so the other loopback name makes the content another site
 * than a portal opened on `localhost` or `127.0.0.1`; any other host keeps its name, on
 * its own port (SECURITY.md says what then holds the content apart).
 */
function contentHostBeside(portalHost: string): string {
  if (portalHost === "localhost") return "127.0.0.1";
  if (portalHost === "127.0.0.1") return "localhost";
  return portalHost;
}

/** Thrown for a bad environment; main.ts prints its one-line message and exits. */
export class ConfigError extends Error {}

/**
 * Parses the environment once into a typed config with the embedded defaults
 * (ARCHITECTURE section 3). Does no I/O: the admin key file is handled by
 * `resolveAdminSetupKey` at start-up.
 */
export function buildConfig(env: Record<string, string | undefined> = process.env) {
  // Empty strings (e.g. `S3_BUCKET=` in a .env file) mean "unset".
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? "environment");
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === "production";
  if (e.S3_BUCKET && !(e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      "Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required with S3_BUCKET",
    );
  }
  const firebaseParts = [e.FIREBASE_PROJECT_ID, e.FIREBASE_API_KEY, e.FIREBASE_AUTH_DOMAIN];
  if (e.FIREBASE_PROJECT_ID && firebaseParts.some((p) => !p)) {
    throw new ConfigError(
      "Invalid configuration: FIREBASE_API_KEY and FIREBASE_AUTH_DOMAIN are required with FIREBASE_PROJECT_ID",
    );
  }
  if (e.FIREBASE_AUTH_EMULATOR_HOST && production) {
    // The emulator's tokens are unsigned and firebase-admin accepts them while this is set.
    throw new ConfigError(
      "Invalid configuration: FIREBASE_AUTH_EMULATOR_HOST must not be set when NODE_ENV=production",
    );
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://${browsableHost(e.HOST)}:${e.PORT}`).replace(
    /\/+$/,
    "",
  );
  const publicOrigin = new URL(publicUrl).origin;
  const contentPort = e.CONTENT_PORT ?? (e.PORT === 0 ? 0 : e.PORT + 1);
  const contentOrigin = new URL(
    e.CONTENT_URL ?? `http://${contentHostBeside(new URL(publicUrl).hostname)}:${contentPort}`,
  ).origin;
  if (contentOrigin === publicOrigin) {
    throw new ConfigError(
      "Invalid configuration: CONTENT_URL must be another origin than the portal's (PUBLIC_URL)",
    );
  }
  return {
    env: e.NODE_ENV,
    production,
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    embeddedDatabase: e.EMBEDDED_DATABASE,
    publicUrl,
    publicOrigin,
    /** Where package content (SCORM, cmi5) is served, apart from the portal (SECURITY.md). */
    contentOrigin,
    contentPort,
    productName: e.PRODUCT_NAME,
    adminSetupKey: e.ADMIN_SETUP_KEY,
    /** The key of the secrets the portal stores sealed (lib/secret-box.ts). */
    secretsKey: e.SECRETS_KEY ? Buffer.from(e.SECRETS_KEY, "base64") : undefined,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID!,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
          forcePathStyle: e.S3_FORCE_PATH_STYLE ?? Boolean(e.S3_ENDPOINT),
        }
      : undefined,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `${e.PRODUCT_NAME} <no-reply@localhost>`,
    firebase: e.FIREBASE_PROJECT_ID
      ? {
          projectId: e.FIREBASE_PROJECT_ID,
          apiKey: e.FIREBASE_API_KEY!,
          authDomain: e.FIREBASE_AUTH_DOMAIN!,
          emulatorHost: e.FIREBASE_AUTH_EMULATOR_HOST,
        }
      : undefined,
    passwordSetupMode: e.PASSWORD_SETUP_MODE ?? (production ? "invite" : "open"),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    redisUrl: e.REDIS_URL,
    logLevel: e.LOG_LEVEL,
    /** Event-loop lag past which requests are answered 503 (load shedding); 0 turns it off. */
    maxEventLoopDelayMs: e.MAX_EVENT_LOOP_DELAY_MS,
    /** Minutes between mail sweeps (reminders, certificate mails left unsent); 0 turns them off. */
    reminderIntervalMinutes: e.REMINDER_INTERVAL_MINUTES,
  } as const;
}

/** A hop count or a list of addresses/CIDRs; never `true` (that trusts any client's headers). */
function parseTrustProxy(
  value: string | undefined,
): string[] | false | ((address: string, hop: number) => boolean) {
  if (!value) return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  if (value === "true") {
    throw new ConfigError(
      "Invalid configuration: TRUST_PROXY must list proxy addresses or a hop count, not 'true'",
    );
  }
  const entries = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = entries.find((entry) => !isProxyAddress(entry));
  if (bad !== undefined || entries.length === 0) {
    // Fastify would otherwise fail later with a bare "invalid IP address" naming no variable.
    throw new ConfigError(
      `Invalid configuration: TRUST_PROXY must be a hop count or a comma-separated list of IP addresses, CIDR ranges, loopback, linklocal or uniquelocal (got '${bad ?? value}')`,
    );
  }
  return entries;
}

/** What Fastify's trustProxy (proxy-addr) accepts in a list. */
function isProxyAddress(entry: string): boolean {
  if (entry === "loopback" || entry === "linklocal" || entry === "uniquelocal") return true;
  const [address = "", range, ...rest] = entry.split("/");
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4;
}

/**
 * The admin setup key: ADMIN_SETUP_KEY when set; otherwise (outside production) a key
 * generated on first start and kept in DATA_DIR so restarts reuse it.
 */
export function resolveAdminSetupKey(config: Config): {
  key: string | undefined;
  generated: boolean;
} {
  if (config.adminSetupKey) return { key: config.adminSetupKey, generated: false };
  if (config.production) return { key: undefined, generated: false };
  const file = join(config.dataDir, "admin-setup-key");
  if (existsSync(file)) return { key: readFileSync(file, "utf8").trim(), generated: false };
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(18).toString("base64url");
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return { key, generated: true };
}

/**
 * The key that seals stored secrets: SECRETS_KEY when set; otherwise (outside production) a
 * key generated on first start and kept in DATA_DIR, so restarts can still open what was
 * sealed. Undefined in production without SECRETS_KEY: features that store secrets refuse.
 */
export function resolveSecretsKey(config: Config): Buffer | undefined {
  if (config.secretsKey) return config.secretsKey;
  if (config.production) return undefined;
  const file = join(config.dataDir, "secrets-key");
  if (existsSync(file)) return Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString("base64")}\n`, { mode: 0o600 });
  return key;
}
