import { pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "../../people/auth/auth.table";

/** A learner's professional licence, printed on certificates and credit reports. */
export const learnerLicences = pgTable("learner_licences", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  licenceType: text("licence_type").notNull().default(""),
  licenceNumber: text("licence_number").notNull().default(""),
  licenceState: text("licence_state").notNull().default(""),
  npn: text("npn").notNull().default(""),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
