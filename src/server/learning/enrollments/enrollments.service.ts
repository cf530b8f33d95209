import { COMPLETION_STEP_LABELS, type CompletionStepKey, type Course } from "../../../contract";
import { announceAtCommit, type ChangeFeed } from "../../db/change-feed";
import type { Database } from "../../db/client";
import type { Events } from "../../lib/events";
import type { UserRow } from "../../people";
import { toUser } from "../../people";
import type { Actor, AuditService } from "../../platform";
import { createCompletionRecorder } from "./completion-recorder";
import type { AnyCompletionStep, StepUnit } from "./completion-steps";
import { createCourseRecompute } from "./course-recompute";
import { createEnrolling } from "./enrolling";
import {
  createEnrollmentReads,
  currentModules,
  enrollmentFields,
  enrollmentJson,
} from "./enrollment-reads";
import { notEnrolled } from "./enrollments.errors";
import { createEnrollmentsRepository } from "./enrollments.repository";
import { createUnitOfWork, type Target } from "./unit-of-work";

export interface EnrollmentsServiceDeps {
  db: Database;
  /** The courses feature: courses with modules (the catalogue cache). */
  courses: {
    findMany(ids: string[]): Promise<Map<string, Course>>;
    /** Courses with their response JSON made once (the catalogue cache). */
    findEntries(ids: string[]): Promise<Map<string, { course: Course; json: string }>>;
    /** A course read past the catalogue, for its rules of completion. */
    findFresh(id: string): Promise<Course | undefined>;
  };
  /** The auth feature: users by id. */
  users: {
    findUser(id: string): Promise<UserRow | undefined>;
    findUsers(ids: string[]): Promise<UserRow[]>;
  };
  /** The audit trail: every change of an enrollment is recorded in its own transaction. */
  audit: Pick<AuditService, "append" | "appendMany">;
  /**
   * The steps of completion, each owned by its feature (ARCHITECTURE section 6), in any
   * order: the contract's COMPLETION_STEPS orders them.
   */
  steps?: readonly AnyCompletionStep[];
  /** Keeps the per-learner and per-course caches exact across instances; without it nothing is cached. */
  changes?: ChangeFeed;
  /** The clock of the course's and the enrollment's validity; tests pass one they can move. */
  now?: () => Date;
  /**
   * Course edits that change what completes the course (course.rules-changed), and the
   * completion the gate announces in its transaction (enrollment.completed).
   */
  events: Pick<Events, "subscribe" | "publishIn">;
}

/** Who or what takes a step: a learner's own request, or nobody (a deadline passing). */
const learner = (userId: string): Actor => ({ id: userId, role: "learner" });

/** Enrollments and progress (SPEC sections 4 and 7); the server alone computes progress. */
export function createEnrollmentsService(deps: EnrollmentsServiceDeps) {
  const { db } = deps;
  const repo = createEnrollmentsRepository(db);
  const reads = createEnrollmentReads({ ...deps, repo });
  const { enrollmentsOf } = reads;

  /** After this process changed a learner's enrollments (committed): drop them here at once. */
  const changed = (userId: string) => deps.changes?.announce("enrollments", userId);
  /**
   * After this process added or removed enrollments (committed): every page after them moved,
   * so pages are dropped here at once too, not only when the trigger's notice comes round.
   */
  const moved = () => deps.changes?.announce("enrollments", "+");

  const now = deps.now ?? (() => new Date());
  const work = createUnitOfWork({ ...deps, now, announce: changed });
  const { contexts, contextOf, unitOfWork } = work;
  const completions = createCompletionRecorder({ db, audit: deps.audit, work, announce: changed });
  const recompute = createCourseRecompute({ db, audit: deps.audit, work, announce: changed });
  // A course edit that changes what completes it asks, in its own transaction, for its
  // enrollments to be recomputed, and they are before the edit is answered.
  deps.events.subscribe("course.rules-changed", {
    async inTransaction(tx, { courseId }) {
      await recompute.request(tx, courseId);
      // Every instance drops its cached context of the course at commit: a step's settings
      // need no trigger of their own, only this event, which their edits publish.
      await announceAtCommit(tx, "courses", courseId);
    },
    afterCommit: () => recompute.runPending(),
  });

  const enrolling = createEnrolling({ ...deps, work, now, changed, moved, one: reads.one });

  return {
    /**
     * A learner's step (ARCHITECTURE section 6): the step's own write runs on the locked
     * enrollment after the course's state is checked, and completion is settled with it.
     */
    async takeStep<T>(input: {
      userId: string;
      courseId: string;
      step: CompletionStepKey;
      /** The step's time, when its feature keeps a clock of its own (exam deadlines). */
      at?: Date;
      write: (unit: StepUnit) => Promise<T>;
    }): Promise<T> {
      return work.takeStep({ ...input, actor: learner(input.userId) });
    },

    /**
     * A locked read of a learner's standing that may grade what ran out (an exam attempt
     * past its deadline), settling completion with it; the course's state refuses nothing.
     * An administrator's change to an enrollment (an extra attempt) names it by id.
     */
    async withEnrollment<T>(input: {
      target: Target;
      actor: Actor;
      at?: Date;
      write: (unit: StepUnit) => Promise<T>;
    }): Promise<T> {
      return (await unitOfWork(input)).result;
    },

    /** The course's credit context (cached), for reads beside the steps. */
    context: contextOf,

    /** The learner's enrollment row in a course, if any (read fresh: its dates matter). */
    findRow: (userId: string, courseId: string) => repo.findByUserAndCourse(userId, courseId),

    /** The learner's enrollment in a course with its completed module ids (cached), if any. */
    async findEnrollment(userId: string, courseId: string) {
      const row = (await enrollmentsOf(userId)).find((e) => e.courseId === courseId);
      return row ? { id: row.id, completed: row.completed, isCompleted: row.isCompleted } : null;
    },

    /** Where a learner stands with a course: its steps in order and the next to do. */
    async completion(userId: string, courseId: string) {
      const context = await contexts.get(courseId);
      const found = await repo.withCompletions({ userId, courseId }, false);
      if (!found || !context) throw notEnrolled();
      const { completions, ...enrollment } = found;
      const list = await work.standing(db, enrollment, context, completions, { optional: true });
      const shown = list.map((s) => ({
        key: s.key,
        label: COMPLETION_STEP_LABELS[s.key],
        required: s.required,
        // A completed course stays complete when a module is added later.
        done: s.doneAt !== null || (enrollment.isCompleted && s.required),
        doneAt: s.doneAt?.toISOString() ?? null,
      }));
      return {
        courseId,
        isCompleted: enrollment.isCompleted,
        steps: shown,
        next: enrollment.isCompleted
          ? null
          : (shown.find((s) => s.required && !s.done)?.key ?? null),
      };
    },

    /**
     * After something outside the steps changed (the learner entered the licence a course
     * asks for): completes every enrollment of the learner that was waiting only for it.
     */
    async settleLearner(userId: string, actor: Actor) {
      for (const row of await repo.listByUserWithCompletions(userId)) {
        if (row.isCompleted) continue;
        await unitOfWork({ target: { enrollmentId: row.id }, actor, write: async () => {} });
      }
    },

    async isEnrolled(userId: string, courseId: string): Promise<boolean> {
      return (await enrollmentsOf(userId)).some((e) => e.courseId === courseId);
    },

    async enrolledCourseIds(userId: string): Promise<string[]> {
      return (await enrollmentsOf(userId)).map((e) => e.courseId);
    },

    /**
     * The learner's completed module ids in a course (in completion order), or null when not
     * enrolled. From the per-learner cache: every heartbeat and every video range asks.
     */
    async completedModules(userId: string, courseId: string): Promise<string[] | null> {
      const enrollment = (await enrollmentsOf(userId)).find((e) => e.courseId === courseId);
      return enrollment ? enrollment.completed : null;
    },

    ...enrolling,

    listForUser: reads.listForUser,
    listForUserJson: reads.listForUserJson,
    pageJson: reads.pageJson,

    /**
     * Marks a module complete for the signed-in learner (ARCHITECTURE section 3). The
     * enrollment row is locked, so concurrent calls run in turn: nothing is lost and
     * nothing is counted twice. Calling it again for a completed module changes nothing.
     * Answers the enrollment with its relations as JSON text, made like listForUserJson
     * from the catalogue's cached course JSON: this is the busiest credit write, and the zod
     * serializer would cost it more than its transaction does.
     */
    async completeModule(input: {
      userId: string;
      courseId: string;
      moduleId: string;
      /** The signed-in learner's row, when the caller has it. */
      user?: UserRow;
    }): Promise<string> {
      const { enrollment: row, completedIds } = await completions.record(input);
      const [entries, user] = await Promise.all([
        deps.courses.findEntries([row.courseId]),
        input.user ?? deps.users.findUser(row.userId),
      ]);
      const entry = entries.get(row.courseId)!;
      // Answered from what the transaction saw: a concurrent call that commits meanwhile
      // must not show up in this answer's completedModules beside this answer's progress.
      const fields = enrollmentFields(row, currentModules(entry.course, completedIds));
      return enrollmentJson(fields, entry.json, JSON.stringify(toUser(user!)));
    },

    /**
     * Finishes the recomputes that course edits asked for and that did not run to the end
     * (the portal stopped meanwhile): at start.
     */
    resumeRecomputes: () => recompute.runPending(),
  };
}

export type EnrollmentsService = ReturnType<typeof createEnrollmentsService>;
