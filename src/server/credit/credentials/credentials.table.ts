import { sql } from "drizzle-orm";
import { check, integer, pgTable, text, timestamp, unique, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * The issuer's Ed25519 keys (migration 0023). Exactly one signs: the row whose retired_at is
 * null, which a unique index keeps to one even when instances add the first key together.
 * Retired keys stay, published in the DID document, so earlier credentials still verify.
 */
export const credentialKeys = pgTable(
  "credential_keys",
  {
    /** The fragment of the verification method's id: `did:web:…#<id>`. */
    id: text("id").primaryKey(),
    publicKeyMultibase: text("public_key_multibase").notNull(),
    /** The private key; it never leaves the database but to sign (docs/credentials.md). */
    secretKeyMultibase: text("secret_key_multibase").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    retiredAt: timestamp("retired_at", { withTimezone: true }),
  },
  () => [uniqueIndex("credential_keys_one_signing").on(sql`(true)`).where(sql`retired_at is null`)],
);

export type CredentialKeyRow = typeof credentialKeys.$inferSelect;

/**
 * A certificate's credential: its bit in a status list, taken when the credential is first
 * asked for, and the signed JSON exactly as it is sent every time after.
 */
export const credentials = pgTable(
  "credentials",
  {
    /** A certificate's id; certificates are never deleted, so no foreign key is needed. */
    certificateId: text("certificate_id").primaryKey(),
    statusList: integer("status_list").notNull(),
    statusIndex: integer("status_index").notNull(),
    /** The signed credential as sent; null for the moment between taking the bit and signing. */
    document: text("document"),
    keyId: text("key_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    signedAt: timestamp("signed_at", { withTimezone: true }),
  },
  (t) => [
    unique("credentials_status_unique").on(t.statusList, t.statusIndex),
    check("credentials_status_index_check", sql`${t.statusIndex} >= 0`),
  ],
);

export type CredentialRow = typeof credentials.$inferSelect;

/** The last signed status-list credential of each list, with the bits it was signed over. */
export const credentialStatusLists = pgTable("credential_status_lists", {
  id: integer("id").primaryKey(),
  encodedList: text("encoded_list").notNull(),
  document: text("document").notNull(),
  signedAt: timestamp("signed_at", { withTimezone: true }).notNull().defaultNow(),
});
