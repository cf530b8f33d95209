import type { CertificateCredit, CompletionStepKey } from "../../../contract";
import type { Executor } from "../../db/client";
import type { EnrollmentRow } from "./enrollments.table";

/**
 * What completed steps add to the certificate's snapshot (the passing exam's score and
 * time; the credit claimed and what a credit-ready certificate prints). The certificate is
 * issued in the transaction that completes the course.
 */
export interface CreditFacts {
  examScore?: number;
  examPassedAt?: Date;
  credit?: CertificateCredit | null;
}

/**
 * A step of completion before or after the modules (ARCHITECTURE section 6), owned by its
 * own feature. The enrollments feature asks every step, in order, inside the transaction that
 * marks an enrollment completed; a course that asks for none completes with its modules.
 */
export interface CompletionRequirement {
  key: Exclude<CompletionStepKey, "modules" | "certificate">;
  /** Whether the course asks for this step. */
  isRequired(tx: Executor, courseId: string): Promise<boolean>;
  /** When the enrollment did it, or null while it has not. */
  doneAt(tx: Executor, enrollment: EnrollmentRow): Promise<Date | null>;
  /** What the certificate records of this step, once done. */
  creditFacts?(tx: Executor, enrollment: EnrollmentRow): Promise<CreditFacts>;
}

/**
 * The last word before a certificate is issued: whether the enrollment may earn credit now
 * (the course and the enrollment still valid, the licence a course asks for entered), and
 * what the certificate prints of the credit claim.
 */
export interface CertificateGate {
  canIssue(tx: Executor, enrollment: EnrollmentRow, now: Date): Promise<boolean>;
  creditFacts(tx: Executor, enrollment: EnrollmentRow): Promise<CreditFacts>;
}

/** The module being completed, as the learner asked. */
export interface ModuleCompletionInput {
  userId: string;
  courseId: string;
  moduleId: string;
}

/**
 * A rule on completing one module (verified watching, review questions). Prepared before
 * the transaction (embedded PGlite has one connection: a read outside the transaction would
 * wait for it), then checked inside it on the locked enrollment.
 */
export interface ModuleRequirement {
  prepare(
    input: ModuleCompletionInput,
  ): Promise<(tx: Executor, enrollment: EnrollmentRow) => Promise<void>>;
}
