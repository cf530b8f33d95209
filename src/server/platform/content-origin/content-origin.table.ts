import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The secret that signs links to package content, kept in the database so that every
 * instance signs and checks with the same one, on the embedded database as on PostgreSQL.
 */
export const contentKeys = pgTable("content_keys", {
  name: text("name").primaryKey(),
  secret: text("secret").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
