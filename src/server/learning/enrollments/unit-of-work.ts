import { COMPLETION_STEPS, type CompletionStepKey } from "../../../contract";
import { createBatchQueue, type Queued, Refused } from "../../db/batch-queue";
import type { Executor } from "../../db/client";
import type { Actor } from "../../platform";
import { createPendingWrites, type PendingWrites } from "../../platform";
import type {
  AnyCompletionStep,
  CompletionStep,
  CourseContext,
  CreditFacts,
  StepUnit,
} from "./completion-steps";
import { createCourseContexts } from "./course-contexts";
import {
  courseNotFound,
  courseUnavailable,
  enrollmentNotFound,
  notEnrolled,
  stepOutOfOrder,
} from "./enrollments.errors";
import { createEnrollmentsRepository, enrollmentKey } from "./enrollments.repository";
import type { EnrollmentsServiceDeps } from "./enrollments.service";
import type { EnrollmentRow } from "./enrollments.table";

declare module "../../lib/events" {
  interface EventMap {
    /**
     * An enrollment was completed through the gate, inside the transaction that completes it,
     * with the credit facts of its steps: its certificate is issued in that transaction.
     */
    "enrollment.completed": {
      enrollmentId: string;
      actor: Actor;
      facts: CreditFacts;
      /** The transaction's writes left to the end, which the certificate's mail and event join. */
      pending: PendingWrites;
    };
  }
}

/**
 * The course's rules of completion changed after its context was read (an edit committed in
 * between): the step is taken again on the course as it now stands.
 */
export class RulesChanged extends Error {}

/** How many times a step is taken again on rules that keep changing under it. */
const RULE_CHANGES_TOLERATED = 3;

/** A step's unit as enrollments holds it: with the completions it keeps up to date. */
export interface WorkUnit extends StepUnit {
  completions: Map<string, Date>;
  /** Whether the write said it changed no step's record. */
  unchanged: boolean;
  /** The credit clock's time, which the course's dates are judged by. */
  today: Date;
  /** The transaction's writes left to the end, which settling adds to. */
  pending: PendingWrites;
}

/** A learner's step waiting for its batch. */
interface StepWaiting extends Queued<StepDone> {
  userId: string;
  courseId: string;
  step: CompletionStepKey;
  at?: Date;
  actor: Actor;
  write: (unit: WorkUnit) => Promise<unknown>;
  context: CourseContext | undefined;
}

/** What a step's unit of work answers: its write's result and the enrollment as it stands. */
interface StepDone {
  result: unknown;
  enrollment: EnrollmentRow;
}

/** The enrollment a unit of work locks: a learner's in a course, or one by id. */
export type Target = { userId: string; courseId: string } | { enrollmentId: string };

/**
 * The completion pipeline (ARCHITECTURE section 6): the steps in the contract's order, the
 * course's credit context, the one unit of work of a learner's step, and the settling of
 * completion with its certificate and audit events.
 */
export function createUnitOfWork(
  deps: Pick<
    EnrollmentsServiceDeps,
    "db" | "courses" | "audit" | "events" | "steps" | "changes"
  > & {
    now: () => Date;
    /** After a learner's standing changed (committed). */
    announce(userId: string): void;
  },
) {
  const { db, now } = deps;
  const repo = createEnrollmentsRepository(db);
  const steps = [...(deps.steps ?? [])].sort(
    (x, y) => COMPLETION_STEPS.indexOf(x.key) - COMPLETION_STEPS.indexOf(y.key),
  );
  const contexts = createCourseContexts({
    db,
    courses: deps.courses,
    steps,
    changes: deps.changes,
  });
  const settingsIn =
    (context: CourseContext) =>
    <S>(step: CompletionStep<S>): S =>
      context.settings.get(step) as S;

  async function contextOf(courseId: string): Promise<CourseContext> {
    const context = await contexts.get(courseId);
    if (!context) throw courseNotFound();
    return context;
  }

  /** Throws RulesChanged when an edit changed the course's rules after `context` was read. */
  function assertCurrent(context: CourseContext, versions: ReadonlyMap<string, number>) {
    if ((versions.get(context.course.id) ?? 0) !== context.version) throw new RulesChanged();
  }

  /**
   * Runs `take` on the course's context, and again on the context read afresh when an edit
   * changed the course's rules in between (its transaction found so): a step never settles
   * on rules that no longer hold.
   */
  async function onCurrentRules<T>(
    courseId: string,
    take: (context: CourseContext | undefined) => Promise<T>,
  ): Promise<T> {
    let context = await contexts.get(courseId);
    for (let tries = 1; ; tries++) {
      try {
        return await take(context);
      } catch (error) {
        if (!(error instanceof RulesChanged) || tries > RULE_CHANGES_TOLERATED) throw error;
        context = await contexts.fresh(courseId);
      }
    }
  }

  /** Refuses any step on the enrollment at `at` (each step's own dates: expiry, window). */
  function assertOpen(context: CourseContext, enrollment: { createdAt: Date }, at: Date) {
    for (const step of steps) step.assertOpen?.(enrollment, context.settings.get(step), at);
  }

  /** Whether the course is online for its learners now: published, not expired, still valid. */
  function assertOnline(context: CourseContext, enrollment: { createdAt: Date }, at: Date) {
    // A course taken offline keeps its learners' records but takes no new step.
    if (!context.course.isPublished) throw courseUnavailable();
    assertOpen(context, enrollment, at);
  }

  /** When the modules step was done: the last of the current modules' completions. */
  function modulesDoneAt(context: CourseContext, completions: ReadonlyMap<string, Date>) {
    if (!context.modules.length || !context.modules.every((id) => completions.has(id))) {
      return null;
    }
    return new Date(Math.max(...context.modules.map((id) => completions.get(id)!.getTime())));
  }

  /**
   * Every step of the fixed order that the course asks for (or only those before `until`),
   * with when the enrollment did it; with `optional`, the steps it does not ask for too.
   */
  async function standing(
    tx: Executor,
    enrollment: EnrollmentRow,
    context: CourseContext,
    completions: ReadonlyMap<string, Date>,
    options: { until?: CompletionStepKey; optional?: boolean } = {},
  ) {
    const keys = options.until
      ? COMPLETION_STEPS.slice(0, COMPLETION_STEPS.indexOf(options.until))
      : COMPLETION_STEPS;
    const list: {
      key: CompletionStepKey;
      step?: AnyCompletionStep;
      required: boolean;
      doneAt: Date | null;
    }[] = [];
    for (const key of keys) {
      if (key === "modules") {
        list.push({ key, required: true, doneAt: modulesDoneAt(context, completions) });
      } else if (key === "certificate") {
        const doneAt = enrollment.isCompleted ? enrollment.completedAt : null;
        list.push({ key, required: true, doneAt });
      }
      for (const step of steps) {
        const settings = context.settings.get(step);
        if (step.key !== key || !step.record) continue;
        const required = step.record.isRequired(settings);
        if (!required && !options.optional) continue;
        const doneAt = await step.record.doneAt(tx, enrollment, settings);
        list.push({ key, step, required, doneAt });
      }
    }
    return list;
  }

  /** Whether a certificate may be issued now: the course online, every step's last word. */
  async function canIssue(
    tx: Executor,
    enrollment: EnrollmentRow,
    context: CourseContext,
    at: Date,
  ) {
    try {
      assertOnline(context, enrollment, at);
    } catch {
      return false;
    }
    for (const step of steps) {
      if (step.canIssue && !(await step.canIssue(tx, enrollment, context.settings.get(step)))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Marks the enrollment completed when every step the course asks for is done and a
   * certificate may be issued: the one place a course completes, its certificate is issued
   * and its events are recorded. Returns the updated row, or undefined when nothing changed.
   */
  async function settle(
    tx: Executor,
    enrollment: EnrollmentRow,
    context: CourseContext,
    completions: Map<string, Date>,
    when: { at: Date; today: Date; actor: Actor },
    pending: PendingWrites,
  ): Promise<EnrollmentRow | undefined> {
    const { at, actor } = when;
    if (enrollment.isCompleted || !modulesDoneAt(context, completions)) return undefined;
    const list = await standing(tx, enrollment, context, completions, { until: "certificate" });
    if (list.some((s) => !s.doneAt)) return undefined;
    if (!(await canIssue(tx, enrollment, context, when.today))) return undefined;
    const updated = await createEnrollmentsRepository(tx).update(enrollment.id, {
      progress: 100,
      isCompleted: true,
      completedAt: at,
    });
    const facts: CreditFacts = { steps: list.map((s) => s.key) };
    for (const step of steps) {
      Object.assign(facts, await step.creditFacts?.(tx, updated, context.settings.get(step)));
    }
    pending.audit({
      type: "course.completed",
      actor,
      learnerId: updated.userId,
      courseId: updated.courseId,
      details: {
        enrollmentId: updated.id,
        completedAt: updated.completedAt?.toISOString() ?? null,
      },
    });
    await deps.events.publishIn(tx, "enrollment.completed", {
      enrollmentId: updated.id,
      actor,
      facts,
      pending,
    });
    return updated;
  }

  /**
   * The unit of a step on an enrollment locked in `tx`: the course's state is checked first
   * (when a step is named), then the step's write gets the row, the context and the order.
   * Its audit events and later inserts join the transaction's `pending` writes.
   */
  function unitFor(
    tx: Executor,
    locked: EnrollmentRow & { completions: Map<string, Date> },
    context: CourseContext,
    input: { step?: CompletionStepKey; at?: Date; actor: Actor },
    pending: PendingWrites,
  ): WorkUnit {
    const { completions, ...enrollment } = locked;
    // The course's dates are kept by the credit clock; the step's record by its own.
    const today = now();
    const at = input.at ?? today;
    if (input.step) assertOnline(context, enrollment, today);
    const unit: WorkUnit = {
      tx,
      enrollment,
      context,
      now: at,
      today,
      completions,
      pending,
      unchanged: false,
      leavesStanding() {
        unit.unchanged = true;
      },
      settingsOf: settingsIn(context),
      modulesDone: () => modulesDoneAt(context, completions) !== null,
      async assertInOrder() {
        if (!input.step) return;
        const until = input.step;
        for (const s of await standing(tx, enrollment, context, completions, { until })) {
          if (s.doneAt) continue;
          throw s.step?.refusal?.(input.step) ?? stepOutOfOrder(s.key);
        }
      },
      audit(event) {
        pending.audit({
          type: event.type,
          actor: event.actor === undefined ? input.actor : event.actor,
          learnerId: enrollment.userId,
          courseId: enrollment.courseId,
          moduleId: event.moduleId,
          details: { enrollmentId: enrollment.id, ...event.details },
        });
      },
      insertLater: pending.insert,
    };
    return unit;
  }

  /** Settles completion on what the unit's write left (see settle). */
  const settleUnit = async (unit: WorkUnit, actor: Actor) =>
    unit.unchanged
      ? undefined
      : settle(
          unit.tx,
          unit.enrollment,
          unit.context,
          unit.completions,
          {
            at: unit.now,
            today: unit.today,
            actor,
          },
          unit.pending,
        );

  /**
   * Runs a write on its unit, then settles what it left: the body of every unit of work.
   * The transaction's pending writes go first when it settles, so settling reads every
   * step's record and the audit trail keeps the order of events.
   */
  async function runUnit(
    tx: Executor,
    locked: EnrollmentRow & { completions: Map<string, Date> },
    context: CourseContext,
    input: {
      step?: CompletionStepKey;
      at?: Date;
      actor: Actor;
      write: (unit: WorkUnit) => Promise<unknown>;
    },
    pending: PendingWrites,
  ): Promise<StepDone> {
    const unit = unitFor(tx, locked, context, input, pending);
    const result = await input.write(unit);
    if (!unit.unchanged) await pending.flush(tx);
    const settled = await settleUnit(unit, input.actor);
    return { result, enrollment: settled ?? unit.enrollment };
  }

  /**
   * Learners' steps that arrive while a batch is written go together in the next transaction
   * (db/batch-queue.ts): their enrollments locked in one statement and their completions read
   * in another, then each step's own write and the settling of its enrollment in turn, and
   * one durable commit for all. A step its rules refuse is answered alone with its refusal.
   */
  async function writeSteps(batch: StepWaiting[]): Promise<StepDone[]> {
    return db.transaction(async (tx) => {
      const txRepo = createEnrollmentsRepository(tx);
      const locked = await txRepo.lockManyWithCompletions(batch);
      // The courses of the enrollments found: an unknown course has no version to hold.
      const versions = await txRepo.lockRulesVersions(
        [...locked.values()].map((row) => row.courseId),
      );
      const pending = createPendingWrites(deps.audit);
      const done: StepDone[] = [];
      const refused = new Set<StepWaiting>();
      for (const w of batch) {
        try {
          const row = locked.get(enrollmentKey(w));
          if (!row) throw notEnrolled();
          if (!w.context) throw courseUnavailable();
          assertCurrent(w.context, versions);
          done.push(await runUnit(tx, row, w.context, w, pending));
        } catch (error) {
          if (batch.length === 1) throw error;
          refused.add(w);
        }
      }
      if (refused.size) throw new Refused(refused);
      await pending.flush(tx);
      return done;
    });
  }

  const stepBatches = createBatchQueue<StepWaiting, StepDone>({
    keyOf: enrollmentKey,
    maxBatch: 50,
    writers: 2,
    writeBatch: writeSteps,
  });

  /** A learner's step through the batches above; answers once it is committed. */
  async function takeStep<T>(input: {
    userId: string;
    courseId: string;
    step: CompletionStepKey;
    at?: Date;
    actor: Actor;
    write: (unit: WorkUnit) => Promise<T>;
  }): Promise<T> {
    // Read before the transaction: embedded PGlite has one connection.
    const done = await onCurrentRules(
      input.courseId,
      (context) =>
        new Promise<StepDone>((resolve, reject) => {
          stepBatches.push({ ...input, context, resolve, reject });
        }),
    );
    deps.announce(input.userId);
    return done.result as T;
  }

  /**
   * A unit of work outside the learners' batches: a locked read that may still grade and
   * settle (an overdue exam attempt graded as saved), or an administrator's change to an
   * enrollment named by id. It reads the course's context, locks the enrollment, runs the
   * write, settles completion in the same transaction and announces after commit; nothing
   * is refused for the course's state.
   */
  async function unitOfWork<T>(input: {
    target: Target;
    actor: Actor;
    /** The time of the write, when its feature keeps a clock of its own (exam deadlines). */
    at?: Date;
    write: (unit: WorkUnit) => Promise<T>;
  }): Promise<{ result: T; enrollment: EnrollmentRow }> {
    const { target } = input;
    let courseId: string;
    if ("enrollmentId" in target) {
      const row = await repo.findById(target.enrollmentId);
      if (!row) throw enrollmentNotFound();
      courseId = row.courseId;
    } else {
      courseId = target.courseId;
    }
    // Read before the transaction: embedded PGlite has one connection, so a read outside
    // the transaction would wait for it.
    const done = await onCurrentRules(courseId, (context) =>
      db.transaction(async (tx) => {
        const txRepo = createEnrollmentsRepository(tx);
        const locked =
          "enrollmentId" in target
            ? await txRepo.withCompletions({ id: target.enrollmentId }, true)
            : await txRepo.withCompletions(target, true);
        if (!locked) throw "enrollmentId" in target ? enrollmentNotFound() : notEnrolled();
        if (!context) throw courseUnavailable();
        assertCurrent(context, await txRepo.lockRulesVersions([courseId]));
        const pending = createPendingWrites(deps.audit);
        const done = await runUnit(tx, locked, context, input, pending);
        await pending.flush(tx);
        return done;
      }),
    );
    deps.announce(done.enrollment.userId);
    return { result: done.result as T, enrollment: done.enrollment };
  }

  return {
    steps,
    contexts,
    contextOf,
    assertCurrent,
    onCurrentRules,
    assertOpen,
    standing,
    unitFor,
    settleUnit,
    unitOfWork,
    takeStep,
  };
}

export type UnitOfWork = ReturnType<typeof createUnitOfWork>;
