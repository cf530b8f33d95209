import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { newId } from "../../db/ids";

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    name: text("name").notNull(),
    /** Always lower-cased by the contract's emailSchema before it gets here. */
    email: text("email").notNull().unique(),
    phone: text("phone"),
    role: text("role", { enum: ["admin", "learner"] }).notNull(),
    status: text("status", { enum: ["active", "restricted"] })
      .notNull()
      .default("active"),
    passwordHash: text("password_hash"),
    firebaseUid: text("firebase_uid").unique(),
    isRegisteredByAdmin: boolean("is_registered_by_admin").notNull().default(false),
    passwordSetup: boolean("password_setup").notNull().default(false),
    /** The identity provider that created this learner at their first sign-on, if one did. */
    createdBySignOn: text("created_by_sign_on"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("users_role_check", sql`${t.role} in ('admin', 'learner')`),
    check("users_status_check", sql`${t.status} in ('active', 'restricted')`),
    // Learners page lists by role, newest first, with keyset pagination. NULLS FIRST is what
    // ORDER BY … DESC means: an index built DESC NULLS LAST cannot serve that order.
    index("users_role_created_idx").on(
      t.role,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // Learner counts (total, active) for the dashboard and reports: index-only scans.
    index("users_role_status_idx").on(t.role, t.status),
  ],
);

/** Only a SHA-256 of the session id is stored, so a database leak yields no usable cookie. */
export const sessions = pgTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    persistent: boolean("persistent").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    userAgent: text("user_agent"),
    ip: text("ip"),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

/** Invitation and password-reset tokens, stored hashed; single use. */
export const authTokens = pgTable(
  "auth_tokens",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    tokenHash: text("token_hash").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["invite", "reset"] }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("auth_tokens_user_idx").on(t.userId, t.kind)],
);

/**
 * Failed sign-in attempts, kept in the database so that every instance counts them
 * (a per-process counter would let an attacker spread guesses across instances).
 */
export const loginFailures = pgTable(
  "login_failures",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    email: text("email").notNull(),
    ip: text("ip").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("login_failures_email_idx").on(t.email, t.createdAt),
    index("login_failures_created_idx").on(t.createdAt),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
