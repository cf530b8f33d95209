import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "../auth/auth.table";
import { identityProviders } from "./identity-providers.table";

/** Which Credo user a provider's subject is: bound at the first sign-on, or by linking. */
export const userIdentities = pgTable(
  "user_identities",
  {
    providerId: text("provider_id")
      .notNull()
      .references(() => identityProviders.id, { onDelete: "cascade" }),
    subject: text("subject").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.providerId, t.subject] }),
    index("user_identities_user_idx").on(t.userId),
  ],
);

export type UserIdentityRow = typeof userIdentities.$inferSelect;
