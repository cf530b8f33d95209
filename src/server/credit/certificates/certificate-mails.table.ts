import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/** What a certificate's mail tells its learner: that it was issued, or that it was revoked. */
export const CERTIFICATE_MAIL_KINDS = ["issued", "revoked"] as const;
export type CertificateMailKind = (typeof CERTIFICATE_MAIL_KINDS)[number];

/**
 * The emails of each certificate, queued in the transaction that issues or revokes it and
 * delivered after commit (certificate-mails.service.ts). A row stays until the mail went out,
 * so neither a failed delivery nor a process stopping right after the commit loses it. One
 * mail of each kind per certificate: a certificate is issued once and revoked once.
 */
export const certificateMails = pgTable(
  "certificate_mails",
  {
    /** A certificate's id; certificates are never deleted, so no foreign key is needed. */
    certificateId: text("certificate_id").notNull(),
    kind: text("kind", { enum: CERTIFICATE_MAIL_KINDS }).notNull().default("issued"),
    attempts: integer("attempts").notNull().default(0),
    /** When a sender last took it: another sender leaves it alone for a while. */
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "certificate_mails_pkey", columns: [t.certificateId, t.kind] }),
    check("certificate_mails_kind_check", sql`${t.kind} in ('issued', 'revoked')`),
    index("certificate_mails_unsent_idx").on(t.createdAt).where(sql`${t.sentAt} is null`),
  ],
);

export type CertificateMailRow = typeof certificateMails.$inferSelect;
