import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The email of each issued certificate, queued in the transaction that issues it and
 * delivered after commit (certificate-mails.ts). A row stays until the mail went out, so
 * neither a failed delivery nor a process stopping right after the commit loses it.
 */
export const certificateMails = pgTable(
  "certificate_mails",
  {
    /** A certificate's id; certificates are never deleted, so no foreign key is needed. */
    certificateId: text("certificate_id").primaryKey(),
    attempts: integer("attempts").notNull().default(0),
    /** When a sender last took it: another sender leaves it alone for a while. */
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("certificate_mails_unsent_idx").on(t.createdAt).where(sql`${t.sentAt} is null`)],
);

export type CertificateMailRow = typeof certificateMails.$inferSelect;
