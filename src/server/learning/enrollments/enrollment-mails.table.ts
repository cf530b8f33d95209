import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { enrollments } from "./enrollments.table";

/**
 * The email telling a learner an administrator enrolled them: one row per enrollment, queued
 * in the transaction that enrolls and delivered after commit (enrollment-mails.service.ts),
 * one mail per learner for the rows queued together. An enrollment removed before its mail
 * went out takes the row with it: nobody is told of a course they no longer have.
 */
export const enrollmentMails = pgTable(
  "enrollment_mails",
  {
    enrollmentId: text("enrollment_id")
      .primaryKey()
      .references(() => enrollments.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    courseId: text("course_id").notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** When a sender last took it: another sender leaves it alone for a while. */
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    lastError: text("last_error"),
    /** The portal's clock at enrollment: the mail waits for the learner's other courses. */
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("enrollment_mails_unsent_idx").on(t.userId, t.createdAt).where(sql`${t.sentAt} is null`),
  ],
);

export type EnrollmentMailRow = typeof enrollmentMails.$inferSelect;
