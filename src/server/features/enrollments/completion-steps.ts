import type { CompletionStepKey } from "../../../contract";
import type { Executor } from "../../db/client";
import type { EnrollmentRow } from "./enrollments.table";

/**
 * What a completed step adds to the certificate's snapshot (the passing exam's score and
 * time). The certificate is issued in the transaction that completes the course.
 */
export interface CreditFacts {
  examScore?: number;
  examPassedAt?: Date;
}

/**
 * A step of completion after the modules (ARCHITECTURE section 6), owned by its own
 * feature. The enrollments feature asks every step, in order, inside the transaction that
 * marks an enrollment completed; a course that asks for none completes with its modules.
 */
export interface CompletionRequirement {
  key: Exclude<CompletionStepKey, "modules">;
  /** Whether the course asks for this step. */
  isRequired(tx: Executor, courseId: string): Promise<boolean>;
  /** Whether the enrollment has done it. */
  isDone(tx: Executor, enrollment: EnrollmentRow): Promise<boolean>;
  /** What the certificate records of this step, once done. */
  creditFacts?(tx: Executor, enrollment: EnrollmentRow): Promise<CreditFacts>;
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
