import type { PgTable } from "drizzle-orm/pg-core";
import type {
  CertificateCredit,
  CompletionStepKey,
  Course,
  StoredClaimedCredit,
} from "../../../contract";
import type { Executor } from "../../db/client";
import type { Actor, AuditEventType } from "../../platform";
import type { AppError } from "../../plugins/errors";
import type { EnrollmentRow } from "./enrollments.table";

/**
 * What completed steps add to the certificate's snapshot (the passing exam's score and
 * time; the credit claimed of each type and what a credit-ready certificate prints). The certificate is
 * issued in the transaction that completes the course.
 */
export interface CreditFacts {
  examScore?: number;
  examPassedAt?: Date;
  credit?: CertificateCredit | null;
  /** The credit awarded, one entry per credit type claimed. */
  credits?: StoredClaimedCredit[];
  /** The credit the course offered of each type claimed (its whole amount). */
  creditsOffered?: { name: string; amount: number }[];
  /** The steps the course required, in order: the certificate's criteria. */
  steps?: CompletionStepKey[];
}

/** A loader of a course's settings, run once per reading of the course's credit context. */
export type SharedLoad = <T>(loader: (db: Executor, courseId: string) => Promise<T>) => Promise<T>;

/**
 * One step of completion (ARCHITECTURE section 6), owned by its own feature and handed to
 * the enrollments feature in a list. The order of the steps is the contract's
 * `COMPLETION_STEPS`; a rule on each module (verified watching, review questions) is a step
 * with the key `modules`. Every member but `key` and `load` is optional: a step
 * implements the parts of completion it takes part in, and enrollments asks them in order
 * inside the one transaction of a learner's step.
 *
 * `S` is the step's own settings of a course, read once per course by `load` and cached in
 * the course's credit context (course-contexts.ts) until the course or its settings change.
 */
export interface CompletionStep<S = unknown> {
  key: CompletionStepKey;
  /**
   * The course's settings this step decides by (runs outside any transaction). A step that
   * also decides by another step's settings reads them with `shared(thatLoader)`: each
   * loader runs once per course, however many steps ask.
   */
  load(db: Executor, courseId: string, shared: SharedLoad): Promise<S>;
  /**
   * For a step with a record of its own: whether the course asks for it, and when the
   * enrollment did it (null while it has not).
   */
  record?: {
    isRequired(settings: S): boolean;
    doneAt(tx: Executor, enrollment: EnrollmentRow, settings: S): Promise<Date | null>;
  };
  /**
   * The refusal of a later step taken while this one is not done; by default "Complete
   * {label} first."
   */
  refusal?(later: CompletionStepKey): AppError | undefined;
  /** Refuses completing this module now (not watched enough, review not answered). */
  checkModule?(
    tx: Executor,
    input: { enrollment: EnrollmentRow; course: Course; moduleId: string; settings: S },
  ): Promise<void>;
  /**
   * Refuses every step on the enrollment at `now` (the course expired, the window passed);
   * asked of a would-be enrollment too, before enrolling.
   */
  assertOpen?(enrollment: { createdAt: Date }, settings: S, now: Date): void;
  /** Whether a certificate may be issued now (the licence the course asks for is entered). */
  canIssue?(tx: Executor, enrollment: EnrollmentRow, settings: S): Promise<boolean>;
  /** What the certificate records of this step, once done. */
  creditFacts?(tx: Executor, enrollment: EnrollmentRow, settings: S): Promise<CreditFacts>;
}

/**
 * A step with its settings' type checked where it is written; enrollments holds steps of
 * every settings type in one list.
 */
// biome-ignore lint/suspicious/noExplicitAny: the list erases each step's own settings type
export type AnyCompletionStep = CompletionStep<any>;
export const defineStep = <S>(step: CompletionStep<S>): CompletionStep<S> => step;

/** A course as every step of a request reads it: read once, cached per course. */
export interface CourseContext {
  course: Course;
  /** The module ids in order. */
  modules: string[];
  /** Each step's settings of this course, by step. */
  settings: ReadonlyMap<AnyCompletionStep, unknown>;
  /** The version of the course's rules these were read at (completion_recomputes.requests). */
  version: number;
}

/** What a step's own write receives inside the unit of work. */
export interface StepUnit {
  tx: Executor;
  /**
   * The learner's enrollment, locked until the transaction ends. A write that changes the
   * row puts the new row here, so completion is settled on it.
   */
  enrollment: EnrollmentRow;
  context: CourseContext;
  /** The credit clock's time of this step. */
  now: Date;
  /** A step's settings of this course. */
  settingsOf<S>(step: CompletionStep<S>): S;
  /** When each module of the enrollment was completed, in completion order. */
  completions: ReadonlyMap<string, Date>;
  /** Whether every module of the course is complete. */
  modulesDone(): boolean;
  /**
   * Says that the write changed no step's record (an attempt started, a grade short of the
   * pass mark): completion is not settled after it, which saves its reads.
   */
  leavesStanding(): void;
  /** Refuses this step while a required step before it is not done (the step says when). */
  assertInOrder(): Promise<void>;
  /**
   * Records an event of this step on the audit trail, in the unit's transaction: by the
   * unit's actor unless another is named, for the enrollment's learner and course, with the
   * enrollment's id among its details. Written with the unit's other records (insertLater).
   */
  audit(event: {
    type: AuditEventType;
    moduleId?: string;
    details?: Record<string, unknown>;
    actor?: Actor;
  }): void;
  /**
   * Inserts a record nothing in this write reads back (an attempt started), in the unit's
   * transaction: with the rows of the same table that the other units of its batch leave,
   * in one statement, after every write of the batch; before completion is settled when
   * the unit settles, so every step's record is in place for it.
   */
  insertLater<T extends PgTable>(table: T, row: T["$inferInsert"]): void;
}
