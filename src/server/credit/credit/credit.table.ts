import { customType, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { newId } from "../../db/ids";
import { users } from "../../people";

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/**
 * Responsible officials' signature images. A row is never changed or deleted: issued
 * certificates point at the signature they were signed with.
 */
export const signatures = pgTable("signatures", {
  id: text("id").primaryKey().$defaultFn(newId),
  contentType: text("content_type").notNull(),
  bytes: bytea("bytes").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

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
