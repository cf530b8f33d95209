import {
  COMPLETION_STEP_LABELS,
  COMPLETION_STEPS,
  type CompletionStepKey,
  type Course,
  type EnrollmentWithRelations,
  isModuleUnlocked,
  progressFor,
  type User,
} from "../../../contract";
import type { ChangeFeed } from "../../db/change-feed";
import type { Database, Executor } from "../../db/client";
import { decodeCursor, pageOf } from "../../db/cursor";
import { createReadCache } from "../../db/read-cache";
import type { Actor } from "../audit/audit.service";
import { toUser } from "../auth/auth.mapper";
import type { UserRow } from "../auth/auth.table";
import type { CourseRow } from "../courses/courses.table";
import type {
  CertificateGate,
  CompletionRequirement,
  CreditFacts,
  ModuleCompletionInput,
  ModuleRequirement,
} from "./completion-steps";
import {
  alreadyEnrolled,
  courseNotFound,
  courseNotPublished,
  courseUnavailable,
  enrollmentNotFound,
  moduleLocked,
  moduleNotInCourse,
  notALearner,
  notEnrolled,
  notLearners,
  stepOutOfOrder,
} from "./enrollments.errors";
import { createEnrollmentsRepository } from "./enrollments.repository";
import type { EnrollmentRow } from "./enrollments.table";

/**
 * The credit record (audit trail, certificates) of each change, written inside
 * the transaction that makes the change, so both commit together or not at all.
 */
interface CreditHooks {
  enrolled(tx: Executor, enrollment: EnrollmentRow, actor: Actor): Promise<void>;
  removed(tx: Executor, enrollment: EnrollmentRow, actor: Actor): Promise<void>;
  moduleCompleted(
    tx: Executor,
    input: { enrollment: EnrollmentRow; moduleId: string; at: Date; actor: Actor },
  ): Promise<void>;
  /** The enrollment has just become completed: issue its certificate. */
  courseCompleted(
    tx: Executor,
    enrollment: EnrollmentRow,
    actor: Actor,
    facts: CreditFacts,
  ): Promise<void>;
}

export interface EnrollmentsServiceDeps {
  db: Database;
  /** The courses feature: courses with modules, and module order. */
  courses: {
    findRow(id: string): Promise<CourseRow | undefined>;
    findMany(ids: string[]): Promise<Map<string, Course>>;
    /** Courses with their response JSON made once (the catalogue cache). */
    findEntries(ids: string[]): Promise<Map<string, { course: Course; json: string }>>;
    moduleIds(courseId: string): Promise<string[]>;
  };
  /** The auth feature: users by id. */
  users: {
    findUser(id: string): Promise<UserRow | undefined>;
    findUsers(ids: string[]): Promise<UserRow[]>;
  };
  credit?: CreditHooks;
  /** Keeps the per-learner cache exact across instances; without it nothing is cached. */
  changes?: ChangeFeed;
  /** Rules on completing a module (verified watching, review questions), checked in order. */
  moduleRequirements?: ModuleRequirement[];
  /** The steps before the modules (the activity's acknowledgement). */
  before?: CompletionRequirement[];
  /** The steps after the modules (review, exam, evaluation, attestation), in order. */
  requirements?: CompletionRequirement[];
  /** Whether a certificate may be issued now, and what it prints of the credit claim. */
  certificate?: CertificateGate;
  /** Rules on taking any step (an expired course or enrollment takes none), checked first. */
  stepRules?: ((tx: Executor, enrollment: EnrollmentRow) => Promise<void>)[];
  /** Rules on enrolling in a course (an expired activity takes no one), checked in order. */
  enrollRules?: ((courseId: string) => Promise<void>)[];
}

/** Enrollments and progress (SPEC sections 4 and 7); the server alone computes progress. */
export function createEnrollmentsService(deps: EnrollmentsServiceDeps) {
  const { db } = deps;
  const repo = createEnrollmentsRepository(db);
  type LearnerRow = Awaited<ReturnType<typeof repo.listByUserWithCompletions>>[number];
  /**
   * Each learner's enrollments with their completions, cached per learner. The
   * dashboard, the course page's enrollment check and the player read them on every visit;
   * they change only when this learner's enrollments or completions do, and every such change
   * is announced per learner (the statement triggers of migrations 0010 and 0012; this service
   * right after commit).
   * Writes never read from here: completeModule reads and locks the row in its transaction.
   */
  const byLearner = deps.changes
    ? createReadCache<{ userId: string; rows: LearnerRow[] }>({
        feed: deps.changes,
        tables: ["enrollments"],
        tagsOf: (entry) => [`enrollments:${entry.userId}`],
        max: 50_000,
        ttlMs: 5 * 60_000,
      })
    : undefined;
  const enrollmentsOf = async (userId: string): Promise<LearnerRow[]> => {
    const load = async () => ({ userId, rows: await repo.listByUserWithCompletions(userId) });
    return ((await byLearner?.get(userId, load)) ?? (await load())).rows;
  };
  /** After this process changed a learner's enrollments (committed): drop them here at once. */
  const changed = (userId: string) => deps.changes?.announce("enrollments", userId);

  /**
   * Adds completedModules (only those still in the course) and the related course and user.
   * `known` completions, when given, are the ones read in the same transaction as the rows, so
   * progress and completedModules in an answer always agree.
   */
  async function withRelations(
    rows: EnrollmentRow[],
    known?: Map<string, string[]>,
    knownUser?: UserRow,
  ): Promise<EnrollmentWithRelations[]> {
    const userIds = rows.map((r) => r.userId);
    const [completions, courses, users] = await Promise.all([
      known ?? repo.completedModuleIds(rows.map((r) => r.id)),
      deps.courses.findMany(rows.map((r) => r.courseId)),
      // The signed-in learner's own row is already at hand (one round trip less).
      knownUser && userIds.every((id) => id === knownUser.id)
        ? [knownUser]
        : deps.users.findUsers(userIds),
    ]);
    const userById = new Map<string, User>(users.map((u) => [u.id, toUser(u)]));
    return rows.map((row) => {
      const course = courses.get(row.courseId)!;
      return {
        ...enrollmentFields(row, currentModules(course, completions.get(row.id) ?? [])),
        course,
        user: userById.get(row.userId)!,
      };
    });
  }

  /**
   * The user's enrollments, each with its own fields (completedModules counting only modules
   * still in the course) and its catalogue entry, and the user: in two round trips, none when
   * cached. Undefined for an unknown user.
   */
  async function forUser(userId: string, knownUser?: UserRow) {
    const [rows, user] = await Promise.all([
      enrollmentsOf(userId),
      knownUser?.id === userId ? knownUser : deps.users.findUser(userId),
    ]);
    if (!user) return undefined;
    const entries = await deps.courses.findEntries(rows.map((r) => r.courseId));
    const items = rows.map(({ completed, ...row }) => {
      const entry = entries.get(row.courseId)!;
      return { fields: enrollmentFields(row, currentModules(entry.course, completed)), entry };
    });
    return { user: toUser(user), items };
  }

  /** Only the modules still in the course count (a removed module's completion stays stored). */
  const currentModules = (course: Course, completed: string[]) => {
    const current = new Set(course.modules.map((m) => m.id));
    return completed.filter((id) => current.has(id));
  };

  async function one(row: EnrollmentRow, known?: Map<string, string[]>, knownUser?: UserRow) {
    const [enrollment] = await withRelations([row], known, knownUser);
    return enrollment!;
  }

  const prepareModuleGuards = (input: ModuleCompletionInput) =>
    Promise.all((deps.moduleRequirements ?? []).map((r) => r.prepare(input)));

  /** The steps of a list that the course asks for, each with when it was done. */
  async function requiredSteps(
    tx: Executor,
    enrollment: EnrollmentRow,
    list: CompletionRequirement[] = [],
  ) {
    const steps = [];
    for (const requirement of list) {
      if (!(await requirement.isRequired(tx, enrollment.courseId))) continue;
      steps.push({ requirement, doneAt: await requirement.doneAt(tx, enrollment) });
    }
    return steps;
  }

  /**
   * Marks an enrollment whose modules are all complete as completed, when every other step
   * the course asks for is done too and a certificate may be issued: the one place a course
   * completes, its certificate is issued and its events are recorded. Returns the updated
   * row, or false when a step is still to do or it was already completed.
   */
  async function completeIfDone(
    tx: Executor,
    enrollment: EnrollmentRow,
    now: Date,
    actor: Actor,
  ): Promise<EnrollmentRow | false> {
    if (enrollment.isCompleted) return false;
    const before = await requiredSteps(tx, enrollment, deps.before);
    const after = await requiredSteps(tx, enrollment, deps.requirements);
    if ([...before, ...after].some((s) => !s.doneAt)) return false;
    if (deps.certificate && !(await deps.certificate.canIssue(tx, enrollment, now))) return false;
    const updated = await createEnrollmentsRepository(tx).update(enrollment.id, {
      progress: 100,
      isCompleted: true,
      completedAt: now,
    });
    const facts: CreditFacts = {};
    for (const { requirement } of after) {
      Object.assign(facts, await requirement.creditFacts?.(tx, updated));
    }
    Object.assign(facts, await deps.certificate?.creditFacts(tx, updated));
    await deps.credit?.courseCompleted(tx, updated, actor, facts);
    return updated;
  }

  /** When the modules step was done: the last of the current modules' completions. */
  async function modulesDoneAt(tx: Executor, enrollment: EnrollmentRow, order: string[]) {
    const times = await createEnrollmentsRepository(tx).completionTimes(enrollment.id);
    if (!order.every((id) => times.has(id))) return null;
    return order.reduce<Date | null>((last, id) => {
      const at = times.get(id)!;
      return !last || at > last ? at : last;
    }, null);
  }

  /**
   * Every step of the fixed order (or only those named), with whether the course asks for it
   * and when it was done.
   */
  /** The single enrollment's rules on the course: it exists, is published, takes learners. */
  async function assertEnrollable(courseId: string): Promise<void> {
    const course = await deps.courses.findRow(courseId);
    if (!course) throw courseNotFound();
    if (!course.isPublished) throw courseNotPublished();
    for (const rule of deps.enrollRules ?? []) await rule(courseId);
  }

  /** One multi-row insert in `tx`, skipping pairs already enrolled; the credit record of each. */
  async function insertEnrollments(
    tx: Executor,
    pairs: { userId: string; courseId: string }[],
    actor: Actor,
  ): Promise<EnrollmentRow[]> {
    const rows = await createEnrollmentsRepository(tx).insertMany(pairs);
    for (const row of rows) await deps.credit?.enrolled(tx, row, actor);
    return rows;
  }

  async function stepsOf(
    tx: Executor,
    enrollment: EnrollmentRow,
    order: string[],
    keys: readonly CompletionStepKey[] = COMPLETION_STEPS,
  ) {
    const doneAt = new Map<CompletionStepKey, Date | null>();
    const required = new Map<CompletionStepKey, boolean>();
    const requirements = [...(deps.before ?? []), ...(deps.requirements ?? [])];
    for (const requirement of requirements.filter((r) => keys.includes(r.key))) {
      required.set(requirement.key, await requirement.isRequired(tx, enrollment.courseId));
      doneAt.set(requirement.key, await requirement.doneAt(tx, enrollment));
    }
    if (keys.includes("modules")) {
      required.set("modules", true);
      doneAt.set("modules", order.length ? await modulesDoneAt(tx, enrollment, order) : null);
    }
    if (keys.includes("certificate")) {
      required.set("certificate", true);
      doneAt.set("certificate", enrollment.isCompleted ? enrollment.completedAt : null);
    }
    return keys
      .filter((key) => required.has(key))
      .map((key) => ({
        key,
        required: required.get(key)!,
        doneAt: doneAt.get(key) ?? null,
      }));
  }

  /** Whether every module still in the course is complete (module order read beforehand). */
  async function modulesDone(tx: Executor, enrollment: EnrollmentRow, order: string[]) {
    const recorded =
      (await createEnrollmentsRepository(tx).completedModuleIds([enrollment.id])).get(
        enrollment.id,
      ) ?? [];
    return order.every((id) => recorded.includes(id));
  }

  return {
    /**
     * For the steps after the modules: the learner's enrollment in a course, locked for the
     * rest of the caller's transaction so a step and a completion never interleave.
     */
    async lockEnrollment(tx: Executor, userId: string, courseId: string) {
      const enrollment = await createEnrollmentsRepository(tx).lockByUserAndCourse(
        userId,
        courseId,
      );
      if (!enrollment) throw notEnrolled();
      return enrollment;
    },

    modulesDone,

    /** An enrollment by id, locked for the rest of the caller's transaction (admin grants). */
    async lockEnrollmentById(tx: Executor, id: string) {
      const enrollment = await createEnrollmentsRepository(tx).lockById(id);
      if (!enrollment) throw enrollmentNotFound();
      return enrollment;
    },

    /** The learner's enrollment row in a course, if any (read fresh: its dates matter). */
    findRow: (userId: string, courseId: string) => repo.findByUserAndCourse(userId, courseId),

    /** The learner's enrollment in a course with its completed module ids (cached), if any. */
    async findEnrollment(userId: string, courseId: string) {
      const row = (await enrollmentsOf(userId)).find((e) => e.courseId === courseId);
      return row ? { id: row.id, completed: row.completed, isCompleted: row.isCompleted } : null;
    },

    /**
     * After a step was done in the caller's transaction (an exam passed): completes the
     * course when nothing else is left. `order` is the course's module ids, read beforehand.
     */
    async settle(
      tx: Executor,
      input: { enrollment: EnrollmentRow; order: string[]; actor: Actor; now: Date },
    ): Promise<boolean> {
      if (!(await modulesDone(tx, input.enrollment, input.order))) return false;
      return (await completeIfDone(tx, input.enrollment, input.now, input.actor)) !== false;
    },

    /** After another feature's transaction changed a learner's standing (committed). */
    announce: (userId: string) => changed(userId),

    /**
     * Refuses a step the enrollment may not take now (expired), or one taken before a
     * required step that comes earlier in the fixed order. `order` is the course's module
     * ids, read beforehand.
     */
    async assertStepOpen(
      tx: Executor,
      enrollment: EnrollmentRow,
      key: CompletionStepKey,
      order: string[],
    ) {
      for (const rule of deps.stepRules ?? []) await rule(tx, enrollment);
      // Only the steps before this one: the later ones cannot refuse it.
      const earlier = COMPLETION_STEPS.slice(0, COMPLETION_STEPS.indexOf(key));
      for (const step of await stepsOf(tx, enrollment, order, earlier)) {
        if (step.required && !step.doneAt) {
          throw stepOutOfOrder(step.key);
        }
      }
    },

    /** Where a learner stands with a course: its steps in order and the next to do. */
    async completion(userId: string, courseId: string) {
      const order = await deps.courses.moduleIds(courseId);
      const enrollment = await repo.findByUserAndCourse(userId, courseId);
      if (!enrollment) throw notEnrolled();
      const steps = (await stepsOf(db, enrollment, order)).map((s) => ({
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
        steps,
        next: enrollment.isCompleted
          ? null
          : (steps.find((s) => s.required && !s.done)?.key ?? null),
      };
    },

    /**
     * After something outside the steps changed (the learner entered the licence a course
     * asks for): completes every enrollment of the learner that was waiting only for it.
     */
    async settleLearner(userId: string, actor: Actor) {
      for (const row of await repo.listByUserWithCompletions(userId)) {
        if (row.isCompleted) continue;
        const order = await deps.courses.moduleIds(row.courseId);
        const completed = await db.transaction(async (tx) => {
          const enrollment = await createEnrollmentsRepository(tx).lockById(row.id);
          if (!enrollment || !(await modulesDone(tx, enrollment, order))) return false;
          return (await completeIfDone(tx, enrollment, new Date(), actor)) !== false;
        });
        if (completed) changed(userId);
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

    /** Enrolls a learner in a published course; a second enrollment is refused (409). */
    async enroll(input: { userId: string; courseId: string; actor?: Actor }) {
      const user = await deps.users.findUser(input.userId);
      if (!user || user.role !== "learner") throw notALearner();
      await assertEnrollable(input.courseId);
      const row = await db.transaction(async (tx) => {
        const inserted = await createEnrollmentsRepository(tx).insert({
          userId: input.userId,
          courseId: input.courseId,
        });
        if (!inserted) throw alreadyEnrolled();
        await deps.credit?.enrolled(tx, inserted, input.actor ?? null);
        return inserted;
      });
      changed(row.userId);
      return one(row);
    },

    assertEnrollable,

    /**
     * Enrolls several learners in one course in one transaction, under the single
     * enrollment's rules. Every id must name a learner, or nothing changes; learners already
     * enrolled are skipped and reported.
     */
    async enrollMany(input: { courseId: string; userIds: string[]; actor: Actor }) {
      const userIds = [...new Set(input.userIds)];
      const found = await deps.users.findUsers(userIds);
      const learners = new Set(found.filter((u) => u.role === "learner").map((u) => u.id));
      const strangers = userIds.filter((id) => !learners.has(id));
      if (strangers.length) throw notLearners(strangers.length);
      await assertEnrollable(input.courseId);
      const rows = await db.transaction((tx) =>
        insertEnrollments(
          tx,
          userIds.map((userId) => ({ userId, courseId: input.courseId })),
          input.actor,
        ),
      );
      for (const row of rows) changed(row.userId);
      const enrolled = new Set(rows.map((row) => row.userId));
      return {
        enrolled: userIds.filter((id) => enrolled.has(id)),
        alreadyEnrolled: userIds.filter((id) => !enrolled.has(id)),
      };
    },

    /**
     * Enrolls learners registered in the caller's transaction `tx`, in courses the caller
     * checked with `assertEnrollable`: one insert, and each enrollment's credit record in the
     * same transaction. Nothing is cached yet for learners who did not exist before it.
     */
    enrollNewLearners: (
      tx: Executor,
      pairs: { userId: string; courseId: string }[],
      actor: Actor,
    ) => insertEnrollments(tx, pairs, actor),

    async remove(id: string, actor: Actor = null): Promise<void> {
      const removed = await db.transaction(async (tx) => {
        const row = await createEnrollmentsRepository(tx).delete(id);
        if (!row) throw enrollmentNotFound();
        await deps.credit?.removed(tx, row, actor);
        return row;
      });
      changed(removed.userId);
    },

    async listForUser(userId: string): Promise<EnrollmentWithRelations[]> {
      const found = await forUser(userId);
      if (!found) return [];
      return found.items.map(({ fields, entry }) => ({
        ...fields,
        course: entry.course,
        user: found.user,
      }));
    },

    /**
     * listForUser as JSON text, for GET /api/enrollments/user/{id}: each course's
     * JSON is the catalogue's, made once, and the rest is small; the shape is the response
     * schema's by construction (json-answers.test.ts compares it with the schema).
     */
    async listForUserJson(userId: string, viewer?: UserRow): Promise<string> {
      const found = await forUser(userId, viewer);
      if (!found) return "[]";
      const owner = JSON.stringify(found.user);
      const items = found.items.map(({ fields, entry }) =>
        enrollmentJson(fields, entry.json, owner),
      );
      return `[${items.join(",")}]`;
    },

    /**
     * A page of every enrollment as JSON text, for GET /api/enrollments, made like
     * listForUserJson: the zod serializer took a third of the portal's CPU on this page.
     */
    async pageJson(input: { limit: number; cursor?: string }) {
      const rows = await repo.page({ limit: input.limit + 1, after: decodeCursor(input.cursor) });
      const { items, nextCursor } = pageOf(rows, input.limit);
      const [completions, entries, users] = await Promise.all([
        repo.completedModuleIds(items.map((r) => r.id)),
        deps.courses.findEntries(items.map((r) => r.courseId)),
        deps.users.findUsers(items.map((r) => r.userId)),
      ]);
      const userJson = new Map(users.map((u) => [u.id, JSON.stringify(toUser(u))]));
      const json = items.map((row) => {
        const entry = entries.get(row.courseId)!;
        const completed = currentModules(entry.course, completions.get(row.id) ?? []);
        return enrollmentJson(
          enrollmentFields(row, completed),
          entry.json,
          userJson.get(row.userId)!,
        );
      });
      return { json: `[${json.join(",")}]`, nextCursor };
    },

    /**
     * Marks a module complete for the signed-in learner (ARCHITECTURE section 3). The
     * enrollment row is locked, so concurrent calls run in turn: nothing is lost and
     * nothing is counted twice. Calling it again for a completed module changes nothing.
     */
    async completeModule(input: {
      userId: string;
      courseId: string;
      moduleId: string;
      /** The signed-in learner's row, when the caller has it. */
      user?: UserRow;
    }) {
      const course = await deps.courses.findRow(input.courseId);
      const order = await deps.courses.moduleIds(input.courseId);
      const guards = await prepareModuleGuards(input);
      const { row, completedIds } = await db.transaction(async (tx) => {
        const txRepo = createEnrollmentsRepository(tx);
        const enrollment = await txRepo.lockByUserAndCourse(input.userId, input.courseId);
        if (!enrollment) throw notEnrolled();
        // A course taken offline keeps its learners' records but takes no new progress.
        // Said only to its own learners: to anyone else a draft is like any other course.
        if (course && !course.isPublished) throw courseUnavailable();
        if (!order.includes(input.moduleId)) throw moduleNotInCourse();
        const recorded =
          (await txRepo.completedModuleIds([enrollment.id])).get(enrollment.id) ?? [];
        const completed = recorded.filter((id) => order.includes(id));
        if (completed.includes(input.moduleId)) return { row: enrollment, completedIds: recorded };
        if (!isModuleUnlocked(order, input.moduleId, completed)) throw moduleLocked();
        for (const guard of guards) await guard(tx, enrollment);
        const now = new Date();
        await txRepo.insertCompletion(enrollment.id, input.moduleId, now);
        const done = completed.length + 1;
        const updated = await txRepo.update(enrollment.id, {
          progress: enrollment.isCompleted ? 100 : progressFor(done, order.length),
        });
        const actor = { id: input.userId, role: "learner" } as const;
        const credit = { enrollment: updated, moduleId: input.moduleId, at: now, actor };
        await deps.credit?.moduleCompleted(tx, credit);
        const finished = done >= order.length;
        const completedNow = finished && (await completeIfDone(tx, updated, now, actor));
        return { row: completedNow || updated, completedIds: [...recorded, input.moduleId] };
      });
      changed(row.userId);
      // Answered from what the transaction saw: a concurrent call that commits meanwhile
      // must not show up in this answer's completedModules beside this answer's progress.
      return one(row, new Map([[row.id, completedIds]]), input.user);
    },

    /**
     * After modules are added, removed or reordered: progress follows the course's current
     * modules (completions are per module, so a new order keeps them; locks follow the order).
     */
    async recomputeCourse(courseId: string): Promise<void> {
      await repo.recomputeCourse(courseId, await deps.courses.moduleIds(courseId));
      // Every learner of the course may have changed.
      changed("*");
    },
  };
}

export type EnrollmentsService = ReturnType<typeof createEnrollmentsService>;

/** An enrollment's own fields in the response schema's order (course and user follow). */
/** An enrollment with its relations as JSON text, from each part's own JSON. */
const enrollmentJson = (
  fields: ReturnType<typeof enrollmentFields>,
  course: string,
  user: string,
) => `${JSON.stringify(fields).slice(0, -1)},"course":${course},"user":${user}}`;

function enrollmentFields(row: EnrollmentRow, completedModules: string[]) {
  return {
    id: row.id,
    userId: row.userId,
    courseId: row.courseId,
    progress: row.progress,
    completedModules,
    isCompleted: row.isCompleted,
    completedAt: row.completedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
