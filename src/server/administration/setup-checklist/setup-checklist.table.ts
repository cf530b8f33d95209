import { pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "../../people/auth/auth.table";

/** The administrators who put the setup checklist away: it stays away for them. */
export const setupChecklistDismissals = pgTable("setup_checklist_dismissals", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  dismissedAt: timestamp("dismissed_at", { withTimezone: true }).notNull().defaultNow(),
});
