import { sql } from "drizzle-orm";
import { boolean, check, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { newId } from "../../db/ids";

/**
 * The identity providers administrators added (OpenID Connect or SAML 2.0). Settings are
 * what the protocol needs in the clear; secrets (a client secret, a private key) are sealed
 * with SECRETS_KEY and never leave the server.
 */
export const identityProviders = pgTable(
  "identity_providers",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    protocol: text("protocol", { enum: ["oidc", "saml"] }).notNull(),
    name: text("name").notNull(),
    /** Lower-case email domains whose people this provider signs in. */
    domains: text("domains").array().notNull().default(sql`'{}'::text[]`),
    createsLearners: boolean("creates_learners").notNull().default(false),
    settings: jsonb("settings").$type<Record<string, unknown>>().notNull().default({}),
    secrets: text("secrets"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("identity_providers_protocol_check", sql`${t.protocol} in ('oidc', 'saml')`)],
);

export type IdentityProviderRow = typeof identityProviders.$inferSelect;
