import { QueryBuilder } from "drizzle-orm/pg-core";
import type { Executor } from "../../db/client";
import { createAttestationsRepository } from "./attestations.repository";
import type { CourseAttestationRow } from "./attestations.table";

/** Whether the course asks learners to attest, and the statement; undefined for a plain course. */
export type AttestationSettings = CourseAttestationRow | undefined;

/** The attestation step's settings of a course, as the credit and reporting features read them. */
export const loadAttestationSettings = (db: Executor, courseId: string) =>
  createAttestationsRepository(db).settingsOf(courseId);

import { attestationCredits, attestations } from "./attestations.table";

/**
 * A learner's attestation of a course, as the activity page shows it and the credit-ready
 * certificate prints it; undefined until the learner attests.
 */
export const attestationOf = (db: Executor, enrollmentId: string) =>
  createAttestationsRepository(db).attestationOf(enrollmentId);

const builder = new QueryBuilder();

/**
 * Every attestation as regulator reports read it: whose, of which enrollment and course. A
 * subquery joined in their own statement; PostgreSQL reads it as the attestations table.
 */
export const attestationRecords = builder
  .select({
    id: attestations.id,
    enrollmentId: attestations.enrollmentId,
    courseId: attestations.courseId,
    courseTitle: attestations.courseTitle,
    learnerName: attestations.learnerName,
  })
  .from(attestations)
  .as("attestation_records");

/**
 * Every credit an attestation claimed, as regulator reports read it: the type, the amounts
 * and the identifiers kept for its regulators. A subquery joined in their own statement.
 */
export const claimedCredits = builder
  .select({
    attestationId: attestationCredits.attestationId,
    position: attestationCredits.position,
    creditTypeId: attestationCredits.creditTypeId,
    catalogueTypeId: attestationCredits.catalogueTypeId,
    name: attestationCredits.name,
    amount: attestationCredits.amount,
    maxAmount: attestationCredits.maxAmount,
    regulatorIds: attestationCredits.regulatorIds,
  })
  .from(attestationCredits)
  .as("claimed_credits");
