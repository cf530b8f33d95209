import type { Executor } from "../../db/client";
import { createAttestationsRepository } from "./attestations.repository";

/**
 * A learner's attestation of a course, as the activity page shows it and the credit-ready
 * certificate prints it; undefined until the learner attests.
 */
export const attestationOf = (db: Executor, enrollmentId: string) =>
  createAttestationsRepository(db).attestationOf(enrollmentId);
