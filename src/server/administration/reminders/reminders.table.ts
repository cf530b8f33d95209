import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";
import { enrollments } from "../../learning/enrollments/enrollments.table";
import { users } from "../../people/auth/auth.table";

/** The portal's one row of reminder settings (id 1); no row means the defaults. */
export const reminderSettings = pgTable(
  "reminder_settings",
  {
    id: integer("id").primaryKey().default(1),
    /** Remind a learner after this many days without activity; null: never. */
    inactivityDays: integer("inactivity_days"),
    /** Remind a learner 14 days before their course or enrollment expires. */
    expiryReminders: boolean("expiry_reminders").notNull().default(true),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("reminder_settings_single_check", sql`${t.id} = 1`),
    check("reminder_settings_days_check", sql`${t.inactivityDays} between 1 and 365`),
  ],
);

/**
 * A learner's unsubscribe token (random, unguessable: it is the only proof a link carries)
 * and whether they opted out of reminders. Certificate emails still go out.
 */
export const reminderSubscriptions = pgTable(
  "reminder_subscriptions",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    token: text("token").notNull(),
    optedOutAt: timestamp("opted_out_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique("reminder_subscriptions_token_unique").on(t.token)],
);

const REMINDER_KINDS = ["inactive", "expiry"] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

/**
 * Every reminder, written before it is sent. The unique (enrollment, kind, period) is what
 * keeps one from going out twice, whichever instance sweeps and however often: the period
 * is the last activity an inactivity reminder answers, or the expiry an expiry reminder
 * announces.
 */
export const reminderSends = pgTable(
  "reminder_sends",
  {
    enrollmentId: text("enrollment_id")
      .notNull()
      .references(() => enrollments.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: REMINDER_KINDS }).notNull(),
    periodAt: timestamp("period_at", { withTimezone: true }).notNull(),
    userId: text("user_id").notNull(),
    attempts: integer("attempts").notNull().default(1),
    claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    lastError: text("last_error"),
  },
  (t) => [
    unique("reminder_sends_period_unique").on(t.enrollmentId, t.kind, t.periodAt),
    check("reminder_sends_kind_check", sql`${t.kind} in ('inactive', 'expiry')`),
    index("reminder_sends_failed_idx").on(t.claimedAt).where(sql`${t.sentAt} is null`),
  ],
);

export type ReminderSendRow = typeof reminderSends.$inferSelect;
