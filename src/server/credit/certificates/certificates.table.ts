import {
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";
import type { CertificateCredit, CompletionStepKey, StoredClaimedCredit } from "../../../contract";
import { courses } from "../../catalogue/courses/courses.table";
import { newId } from "../../db/ids";
import { enrollments } from "../../learning/enrollments/enrollments.table";
import { users } from "../../people/auth/auth.table";

/**
 * What the course asked and offered when the certificate was issued: the completion steps it
 * required, in order, and the credit offered of each type claimed. The certificate's Open
 * Badges credential writes its achievement from it (docs/credentials.md).
 */
export interface CertificateAchievement {
  steps: CompletionStepKey[];
  creditsOffered: { name: string; amount: number }[];
}

/**
 * Issued certificates: a snapshot taken when the enrollment completed. A trigger
 * (migration 0009) refuses any change but one revocation and the clearing of the links when
 * the learner, course or enrollment is deleted: the snapshot keeps it verifiable.
 */
export const certificates = pgTable(
  "certificates",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    /** The public verification code: 160 random bits in Crockford base32 (certificate-code.ts). */
    code: text("code").notNull(),
    enrollmentId: text("enrollment_id").references(() => enrollments.id, { onDelete: "set null" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    courseId: text("course_id").references(() => courses.id, { onDelete: "set null" }),
    learnerName: text("learner_name").notNull(),
    /** For the credit report an accreditor receives; never shown on the public certificate. */
    learnerEmail: text("learner_email"),
    courseTitle: text("course_title").notNull(),
    courseCategory: text("course_category").notNull(),
    durationHours: integer("duration_hours").notNull(),
    /** The credit claimed, one entry per type (migration 0019). */
    credits: jsonb("credits").$type<StoredClaimedCredit[]>().notNull().default([]),
    /** The claimed credit when exactly one type is claimed; null when none or several are. */
    creditHours: numeric("credit_hours", { precision: 7, scale: 2, mode: "number" }),
    creditType: text("credit_type"),
    accreditingBody: text("accrediting_body"),
    providerNumber: text("provider_number"),
    issuerName: text("issuer_name").notNull(),
    /** The issuer's logo (an object of kind 'logo') as it was at issue. */
    issuerLogoId: text("issuer_logo_id"),
    /** The passing exam's score and time, for courses with a final exam. */
    examScore: integer("exam_score"),
    examPassedAt: timestamp("exam_passed_at", { withTimezone: true }),
    /** What a credit-ready certificate prints (sponsor, fields, official, licence, claim). */
    credit: jsonb("credit").$type<CertificateCredit>(),
    /** Null on certificates issued before migration 0023 or without a completing step. */
    achievement: jsonb("achievement").$type<CertificateAchievement>(),
    enrolledAt: timestamp("enrolled_at", { withTimezone: true }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }).notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedReason: text("revoked_reason"),
    revokedBy: text("revoked_by"),
  },
  (t) => [
    unique("certificates_code_unique").on(t.code),
    // One certificate per enrollment: issuing twice (a retry, a race) finds the first.
    unique("certificates_enrollment_unique").on(t.enrollmentId),
    index("certificates_user_idx").on(t.userId, t.completedAt),
  ],
);

export type CertificateRow = typeof certificates.$inferSelect;
