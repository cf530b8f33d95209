import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { newId } from "../../db/ids";
import { users } from "../auth/auth.table";
import { identityProviders } from "./identity-providers.table";

/**
 * A sign-on this portal started: the browser comes back with its `state` (only its hash is
 * stored) and must hold the binding cookie set when it left, within ten minutes, once.
 */
export const signOnRequests = pgTable(
  "sign_on_requests",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    stateHash: text("state_hash").notNull().unique(),
    providerId: text("provider_id")
      .notNull()
      .references(() => identityProviders.id, { onDelete: "cascade" }),
    bindingHash: text("binding_hash").notNull(),
    purpose: text("purpose", { enum: ["sign-in", "link"] }).notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** What the protocol checks the answer against: nonce and PKCE verifier, or a request id. */
    kept: jsonb("kept").$type<Record<string, string>>().notNull().default({}),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    check("sign_on_requests_purpose_check", sql`${t.purpose} in ('sign-in', 'link')`),
    index("sign_on_requests_expires_idx").on(t.expiresAt),
  ],
);

export type SignOnRequestRow = typeof signOnRequests.$inferSelect;
