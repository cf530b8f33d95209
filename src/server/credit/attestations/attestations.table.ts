import {
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";
import type { ClaimRegulatorIds } from "../../../contract";
import { courseCreditTypes } from "../../catalogue/courses/course-credit.table";
import { courses } from "../../catalogue/courses/courses.table";
import { creditCatalogue } from "../../catalogue/courses/credit-catalogue.table";
import { creditRecordIdentity } from "../activity/activity.table";

/** Whether a course asks learners to attest, and the statement they affirm. */
export const courseAttestations = pgTable("course_attestations", {
  courseId: text("course_id")
    .primaryKey()
    .references(() => courses.id, { onDelete: "cascade" }),
  attestationRequired: boolean("attestation_required").notNull().default(false),
  attestationText: text("attestation_text").notNull().default(""),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const attestations = pgTable(
  "attestations",
  {
    ...creditRecordIdentity(),
    /** The exact text the learner affirmed. */
    statement: text("statement").notNull(),
    /** Before credit types: the one claim; now the amount when exactly one type is claimed. */
    creditsClaimed: numeric("credits_claimed", { precision: 6, scale: 2, mode: "number" }),
    designatedCredits: numeric("designated_credits", { precision: 6, scale: 2, mode: "number" }),
    ip: text("ip"),
    userAgent: text("user_agent"),
    attestedAt: timestamp("attested_at", { withTimezone: true }).notNull(),
  },
  (t) => [unique("attestations_enrollment_unique").on(t.enrollmentId)],
);

/**
 * What the learner claimed of each credit type, as claimed (migration 0019): kept with its
 * attestation, changed only by losing the link to a type since deleted.
 */
export const attestationCredits = pgTable(
  "attestation_credits",
  {
    attestationId: text("attestation_id")
      .notNull()
      .references(() => attestations.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    creditTypeId: text("credit_type_id").references(() => courseCreditTypes.id, {
      onDelete: "set null",
    }),
    /** The catalogue's type when claimed: transcripts total by it (migration 0030). */
    catalogueTypeId: text("catalogue_type_id").references(() => creditCatalogue.id, {
      onDelete: "set null",
    }),
    name: text("name").notNull(),
    /** The name as printed for exactly 1, when the catalogue gave it; else made from `name`. */
    singularName: text("singular_name"),
    amount: numeric("amount", { precision: 6, scale: 2, mode: "number" }).notNull(),
    /** The type's amount when claimed: the most the learner could claim. */
    maxAmount: numeric("max_amount", { precision: 6, scale: 2, mode: "number" }).notNull(),
    accreditingBody: text("accrediting_body"),
    providerNumber: text("provider_number"),
    /**
     * For a type that reports to regulators: those regulators and the identifiers the learner
     * gave, as they stood when claimed (migration 0024); null for a type that reports nowhere.
     */
    regulatorIds: jsonb("regulator_ids").$type<ClaimRegulatorIds>(),
  },
  (t) => [
    primaryKey({ columns: [t.attestationId, t.position] }),
    index("attestation_credits_type_idx").on(t.creditTypeId),
  ],
);

export type CourseAttestationRow = typeof courseAttestations.$inferSelect;
