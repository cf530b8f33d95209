import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { newId } from "../../db/ids";
import { users } from "../auth/auth.table";

/**
 * An administrator's second factors: passkeys (a WebAuthn credential's public key) and at
 * most one authenticator app (its TOTP seed, sealed with SECRETS_KEY).
 */
export const secondFactors = pgTable(
  "second_factors",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    method: text("method", { enum: ["passkey", "totp"] }).notNull(),
    name: text("name").notNull(),
    /** Passkeys: the credential id (base64url), unique across every account. */
    credentialId: text("credential_id").unique(),
    /** Passkeys: the COSE public key, base64url. */
    publicKey: text("public_key"),
    /** Passkeys: the authenticator's signature counter, as last seen. */
    signCount: bigint("sign_count", { mode: "number" }).notNull().default(0),
    transports: text("transports").array(),
    /** Authenticator apps: the seed, sealed (lib/secret-box.ts). */
    totpSecret: text("totp_secret"),
    /** Authenticator apps: the last time step accepted; that step and earlier ones never again. */
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [
    check("second_factors_method_check", sql`${t.method} in ('passkey', 'totp')`),
    index("second_factors_user_idx").on(t.userId),
    uniqueIndex("second_factors_one_app_idx").on(t.userId).where(sql`${t.method} = 'totp'`),
  ],
);

/** One-time recovery codes, stored as SHA-256 digests; a used one stays, marked. */
export const recoveryCodes = pgTable(
  "second_factor_recovery_codes",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("second_factor_recovery_codes_user_code_idx").on(t.userId, t.codeHash)],
);

/**
 * Ceremonies in progress: a sign-in waiting for its second step (found by the digest of its
 * browser cookie), or a factor being added from the profile (one per user). Each holds the
 * WebAuthn challenge it issued and, for an authenticator app being added, its sealed seed.
 */
export const secondFactorChallenges = pgTable(
  "second_factor_challenges",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    purpose: text("purpose", { enum: ["sign-in", "enrol"] }).notNull(),
    /** Sign-in: SHA-256 of the secret in the browser's HttpOnly cookie. */
    tokenHash: text("token_hash").unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rememberMe: boolean("remember_me").notNull().default(false),
    /** Sign-in: the account has no factor and the organisation requires one. */
    setupRequired: boolean("setup_required").notNull().default(false),
    /** Sign-in: the verified device cookie's nonce at the password (login-throttle.ts). */
    device: text("device"),
    webauthnChallenge: text("webauthn_challenge"),
    pendingTotpSecret: text("pending_totp_secret"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("second_factor_challenges_purpose_check", sql`${t.purpose} in ('sign-in', 'enrol')`),
    index("second_factor_challenges_user_idx").on(t.userId, t.purpose),
    index("second_factor_challenges_expires_idx").on(t.expiresAt),
  ],
);

/** The organisation's rule (one row, id 1): whether every administrator needs a second factor. */
export const secondFactorPolicy = pgTable(
  "second_factor_policy",
  {
    id: integer("id").primaryKey().default(1),
    required: boolean("required").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("second_factor_policy_single_check", sql`${t.id} = 1`)],
);

export type SecondFactorRow = typeof secondFactors.$inferSelect;
export type SecondFactorChallengeRow = typeof secondFactorChallenges.$inferSelect;
