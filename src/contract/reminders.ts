import { z } from "zod";

/**
 * Reminder emails: after a number of days without activity on an unfinished course (off
 * by default), and before a course or enrollment expires. Learners opt out through the
 * unsubscribe link each reminder carries.
 */

export const INACTIVITY_DAYS_MIN = 1;
export const INACTIVITY_DAYS_MAX = 365;
/** The expiry reminder goes out this many days before the course or enrollment closes. */
export const EXPIRY_REMINDER_DAYS = 14;
/** Unsubscribe tokens are 32 random bytes in base64url. */
export const UNSUBSCRIBE_TOKEN_MAX = 100;

export const REMINDER_MESSAGES = {
  badUnsubscribeLink: "This unsubscribe link is not valid.",
} as const;

/** GET and PUT /api/admin/reminder-settings. */
export const reminderSettingsSchema = z.strictObject({
  /** Remind learners inactive for this many days; null: no inactivity reminders. */
  inactivityDays: z
    .number({ error: "Days must be a number" })
    .int("Days must be a whole number")
    .min(INACTIVITY_DAYS_MIN, `Days must be at least ${INACTIVITY_DAYS_MIN}`)
    .max(INACTIVITY_DAYS_MAX, `Days must be at most ${INACTIVITY_DAYS_MAX}`)
    .nullable(),
  /** Remind learners EXPIRY_REMINDER_DAYS before their course or enrollment expires. */
  expiryReminders: z.boolean({ error: "expiryReminders must be true or false" }),
});
export type ReminderSettings = z.infer<typeof reminderSettingsSchema>;

export const DEFAULT_REMINDER_SETTINGS: ReminderSettings = {
  inactivityDays: null,
  expiryReminders: true,
};

/** POST /api/reminders/unsubscribe: the token of the link the learner opened. */
export const unsubscribeBodySchema = z.strictObject({
  token: z.string().min(1, "token is required").max(UNSUBSCRIBE_TOKEN_MAX),
});

export const unsubscribeResponseSchema = z.strictObject({ unsubscribed: z.literal(true) });
