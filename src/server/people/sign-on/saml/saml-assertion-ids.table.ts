import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { identityProviders } from "../identity-providers.table";

/**
 * The ids of the assertions that signed someone in, each usable once, kept until the
 * assertion could no longer be accepted anyway.
 */
export const samlAssertionIds = pgTable(
  "saml_assertion_ids",
  {
    providerId: text("provider_id")
      .notNull()
      .references(() => identityProviders.id, { onDelete: "cascade" }),
    assertionId: text("assertion_id").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.providerId, t.assertionId] }),
    index("saml_assertion_ids_expires_idx").on(t.expiresAt),
  ],
);
