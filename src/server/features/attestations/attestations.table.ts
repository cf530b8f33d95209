import { numeric, pgTable, text, timestamp, unique } from "drizzle-orm/pg-core";
import { creditRecordIdentity } from "../activity/activity.table";

export const attestations = pgTable(
  "attestations",
  {
    ...creditRecordIdentity(),
    /** The exact text the learner affirmed. */
    statement: text("statement").notNull(),
    creditsClaimed: numeric("credits_claimed", { precision: 6, scale: 2, mode: "number" }),
    designatedCredits: numeric("designated_credits", { precision: 6, scale: 2, mode: "number" }),
    ip: text("ip"),
    userAgent: text("user_agent"),
    attestedAt: timestamp("attested_at", { withTimezone: true }).notNull(),
  },
  (t) => [unique("attestations_enrollment_unique").on(t.enrollmentId)],
);
