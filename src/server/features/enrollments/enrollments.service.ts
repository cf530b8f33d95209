import {
  type Course,
  type EnrollmentWithRelations,
  isModuleUnlocked,
  progressFor,
  type User,
} from "../../../contract";
import type { Database, Executor } from "../../db/client";
import { decodeCursor, pageOf } from "../../db/cursor";
import type { Actor } from "../audit/audit.service";
import { toUser } from "../auth/auth.mapper";
import type { UserRow } from "../auth/auth.table";
import type { CourseRow } from "../courses/courses.table";
import {
  alreadyEnrolled,
  courseNotFound,
  courseNotPublished,
  enrollmentNotFound,
  moduleLocked,
  moduleNotInCourse,
  notALearner,
  notEnrolled,
} from "./enrollments.errors";
import { createEnrollmentsRepository } from "./enrollments.repository";
import type { EnrollmentRow } from "./enrollments.table";

/**
 * Issue 11: the credit record (audit trail, certificates) of each change, written inside
 * the transaction that makes the change, so both commit together or not at all.
 */
export interface CreditHooks {
  enrolled(tx: Executor, enrollment: EnrollmentRow, actor: Actor): Promise<void>;
  removed(tx: Executor, enrollment: EnrollmentRow, actor: Actor): Promise<void>;
  moduleCompleted(
    tx: Executor,
    input: { enrollment: EnrollmentRow; moduleId: string; at: Date; actor: Actor },
  ): Promise<void>;
  /** The enrollment has just become completed: issue its certificate. */
  courseCompleted(tx: Executor, enrollment: EnrollmentRow, actor: Actor): Promise<void>;
}

export interface EnrollmentsServiceDeps {
  db: Database;
  /** The courses feature: courses with modules, and module order. */
  courses: {
    findRow(id: string): Promise<CourseRow | undefined>;
    findMany(ids: string[]): Promise<Map<string, Course>>;
    moduleIds(courseId: string): Promise<string[]>;
  };
  /** The auth feature: users by id. */
  users: {
    findUser(id: string): Promise<UserRow | undefined>;
    findUsers(ids: string[]): Promise<UserRow[]>;
  };
  credit?: CreditHooks;
  /**
   * Issue 10: refuses a completion the course's rule does not allow yet (verified watching).
   * Prepared before the transaction (embedded PGlite has one connection: reads outside the
   * transaction would wait for it), then checked inside it.
   */
  completionGuard?: (input: {
    userId: string;
    courseId: string;
    moduleId: string;
  }) => Promise<(tx: Executor) => Promise<void>>;
}

/** Enrollments and progress (SPEC sections 4 and 7); the server alone computes progress. */
export function createEnrollmentsService(deps: EnrollmentsServiceDeps) {
  const { db } = deps;
  const repo = createEnrollmentsRepository(db);

  /**
   * Adds completedModules (only those still in the course) and the related course and user.
   * `known` completions, when given, are the ones read in the same transaction as the rows, so
   * progress and completedModules in an answer always agree.
   */
  async function withRelations(
    rows: EnrollmentRow[],
    known?: Map<string, string[]>,
  ): Promise<EnrollmentWithRelations[]> {
    const [completions, courses, users] = await Promise.all([
      known ?? repo.completedModuleIds(rows.map((r) => r.id)),
      deps.courses.findMany(rows.map((r) => r.courseId)),
      deps.users.findUsers(rows.map((r) => r.userId)),
    ]);
    const userById = new Map<string, User>(users.map((u) => [u.id, toUser(u)]));
    return rows.map((row) => {
      const course = courses.get(row.courseId)!;
      const current = new Set(course.modules.map((m) => m.id));
      return {
        id: row.id,
        userId: row.userId,
        courseId: row.courseId,
        progress: row.progress,
        completedModules: (completions.get(row.id) ?? []).filter((id) => current.has(id)),
        isCompleted: row.isCompleted,
        completedAt: row.completedAt?.toISOString() ?? null,
        createdAt: row.createdAt.toISOString(),
        course,
        user: userById.get(row.userId)!,
      };
    });
  }

  async function one(row: EnrollmentRow, known?: Map<string, string[]>) {
    const [enrollment] = await withRelations([row], known);
    return enrollment!;
  }

  return {
    async isEnrolled(userId: string, courseId: string): Promise<boolean> {
      return Boolean(await repo.findByUserAndCourse(userId, courseId));
    },

    /** The learner's completed module ids in a course, or null when not enrolled. */
    async completedModules(userId: string, courseId: string): Promise<string[] | null> {
      const enrollment = await repo.findByUserAndCourse(userId, courseId);
      if (!enrollment) return null;
      return (await repo.completedModuleIds([enrollment.id])).get(enrollment.id) ?? [];
    },

    /** Enrolls a learner in a published course; a second enrollment is refused (409). */
    async enroll(input: { userId: string; courseId: string; actor?: Actor }) {
      const user = await deps.users.findUser(input.userId);
      if (!user || user.role !== "learner") throw notALearner();
      const course = await deps.courses.findRow(input.courseId);
      if (!course) throw courseNotFound();
      if (!course.isPublished) throw courseNotPublished();
      const row = await db.transaction(async (tx) => {
        const inserted = await createEnrollmentsRepository(tx).insert({
          userId: input.userId,
          courseId: input.courseId,
        });
        if (!inserted) throw alreadyEnrolled();
        await deps.credit?.enrolled(tx, inserted, input.actor ?? null);
        return inserted;
      });
      return one(row);
    },

    async remove(id: string, actor: Actor = null): Promise<void> {
      await db.transaction(async (tx) => {
        const removed = await createEnrollmentsRepository(tx).delete(id);
        if (!removed) throw enrollmentNotFound();
        await deps.credit?.removed(tx, removed, actor);
      });
    },

    async listForUser(userId: string) {
      return withRelations(await repo.listByUser(userId));
    },

    async page(input: { limit: number; cursor?: string }) {
      const rows = await repo.page({ limit: input.limit + 1, after: decodeCursor(input.cursor) });
      const { items, nextCursor } = pageOf(rows, input.limit);
      return { items: await withRelations(items), nextCursor };
    },

    /**
     * Marks a module complete for the signed-in learner (ARCHITECTURE section 3). The
     * enrollment row is locked, so concurrent calls run in turn: nothing is lost and
     * nothing is counted twice. Calling it again for a completed module changes nothing.
     */
    async completeModule(input: { userId: string; courseId: string; moduleId: string }) {
      const order = await deps.courses.moduleIds(input.courseId);
      const guard = await deps.completionGuard?.(input);
      const { row, completedIds } = await db.transaction(async (tx) => {
        const txRepo = createEnrollmentsRepository(tx);
        const enrollment = await txRepo.lockByUserAndCourse(input.userId, input.courseId);
        if (!enrollment) throw notEnrolled();
        if (!order.includes(input.moduleId)) throw moduleNotInCourse();
        const recorded =
          (await txRepo.completedModuleIds([enrollment.id])).get(enrollment.id) ?? [];
        const completed = recorded.filter((id) => order.includes(id));
        if (completed.includes(input.moduleId)) return { row: enrollment, completedIds: recorded };
        if (!isModuleUnlocked(order, input.moduleId, completed)) throw moduleLocked();
        await guard?.(tx);
        const now = new Date();
        await txRepo.insertCompletion(enrollment.id, input.moduleId, now);
        const done = completed.length + 1;
        const finished = done >= order.length;
        const updated = await txRepo.update(enrollment.id, {
          progress: enrollment.isCompleted ? 100 : progressFor(done, order.length),
          isCompleted: enrollment.isCompleted || finished,
          completedAt: enrollment.completedAt ?? (finished ? now : null),
        });
        const actor = { id: input.userId, role: "learner" } as const;
        const credit = { enrollment: updated, moduleId: input.moduleId, at: now, actor };
        await deps.credit?.moduleCompleted(tx, credit);
        if (updated.isCompleted && !enrollment.isCompleted) {
          await deps.credit?.courseCompleted(tx, updated, actor);
        }
        return { row: updated, completedIds: [...recorded, input.moduleId] };
      });
      // Answered from what the transaction saw: a concurrent call that commits meanwhile
      // must not show up in this answer's completedModules beside this answer's progress.
      return one(row, new Map([[row.id, completedIds]]));
    },

    /** After modules are added or removed: progress follows the course's current modules. */
    async recomputeCourse(courseId: string): Promise<void> {
      await repo.recomputeCourse(courseId, await deps.courses.moduleIds(courseId));
    },
  };
}

export type EnrollmentsService = ReturnType<typeof createEnrollmentsService>;
