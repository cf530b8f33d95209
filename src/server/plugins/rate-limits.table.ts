import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Fixed-window request counters shared by every instance (see rate-limit-store.ts). */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    count: integer("count").notNull(),
    resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("rate_limits_reset_idx").on(t.resetAt)],
);
