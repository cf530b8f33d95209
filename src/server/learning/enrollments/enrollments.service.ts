import {
  COMPLETION_STEP_LABELS,
  type CompletionStepKey,
  type Course,
  type EnrollmentWithRelations,
  type User,
} from "../../../contract";
import { announceAtCommit, type ChangeFeed } from "../../db/change-feed";
import type { Database, Executor } from "../../db/client";
import { decodeCursor, pageOf } from "../../db/cursor";
import { createReadCache } from "../../db/read-cache";
import type { Events } from "../../lib/events";
import type { UserRow } from "../../people";
import { toUser } from "../../people";
import type { Actor, AuditService } from "../../platform";
import { createCompletionRecorder } from "./completion-recorder";
import type { AnyCompletionStep, StepUnit } from "./completion-steps";
import { createCourseRecompute } from "./course-recompute";
import { createEnrollmentMailsRepository } from "./enrollment-mails.repository";
import {
  alreadyEnrolled,
  courseNotPublished,
  enrollmentNotFound,
  notALearner,
  notEnrolled,
  notLearners,
} from "./enrollments.errors";
import { createEnrollmentsRepository } from "./enrollments.repository";
import type { EnrollmentRow } from "./enrollments.table";
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
/** The answer for a learner with no enrollments, or none known. */
const EMPTY_LIST = Buffer.from("[]");

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
  /**
   * Each learner's answer to GET /api/enrollments/user/{id}, as the UTF-8 bytes it is sent
   * as, made once per change like the catalogue's course JSON: a learner's dashboard is read
   * far more often than it changes, and building its ~23 KB from the parts cost more than
   * sending it (kept as text, it was encoded again for every answer). It is dropped with
   * anything it shows: the learner's enrollments or completions, the learner (name, email,
   * status) and each of the courses.
   */
  const answers = deps.changes
    ? createReadCache<{ userId: string; courseIds: string[]; json: Buffer }>({
        feed: deps.changes,
        tables: ["enrollments", "users", "courses"],
        tagsOf: (answer) => [
          `enrollments:${answer.userId}`,
          `users:${answer.userId}`,
          ...answer.courseIds.map((id) => `courses:${id}`),
        ],
        max: 20_000,
        // About 23 KB a learner with ten courses: a few thousand of the most recent learners.
        maxBytes: { total: 64 * 1024 * 1024, of: (answer) => answer.json.length },
        ttlMs: 5 * 60_000,
      })
    : undefined;
  /**
   * Pages of every enrollment (GET /api/enrollments) as answered, by size and cursor: each
   * is about 55 KB of JSON that the portal's thread would build again for every request. A
   * page is dropped when an enrollment is added or removed anywhere ('enrollments:+', which
   * moves pages), when any of its learners' enrollments or completions change, or one of its
   * learners or courses.
   */
  const pages = deps.changes
    ? createReadCache<{ json: string; nextCursor: string | null; tags: string[] }>({
        feed: deps.changes,
        tables: ["enrollments", "users", "courses"],
        tagsOf: (page) => page.tags,
        max: 500,
        maxBytes: { total: 16 * 1024 * 1024, of: (page) => page.json.length },
        ttlMs: 5 * 60_000,
      })
    : undefined;

  async function buildPage(limit: number, after: ReturnType<typeof decodeCursor>) {
    const rows = await repo.page({ limit: limit + 1, after });
    const { items, nextCursor } = pageOf(rows, limit);
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
    const tags = new Set(["enrollments:+"]);
    for (const row of items) {
      tags
        .add(`enrollments:${row.userId}`)
        .add(`users:${row.userId}`)
        .add(`courses:${row.courseId}`);
    }
    return { json: `[${json.join(",")}]`, nextCursor, tags: [...tags] };
  }

  /** After this process changed a learner's enrollments (committed): drop them here at once. */
  const changed = (userId: string) => deps.changes?.announce("enrollments", userId);
  /**
   * After this process added or removed enrollments (committed): every page after them moved,
   * so pages are dropped here at once too, not only when the trigger's notice comes round.
   */
  const moved = () => deps.changes?.announce("enrollments", "+");

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

  /**
   * The single enrollment's rules on the course: it exists, is published and takes learners
   * (an expired activity takes no one).
   */
  async function assertEnrollable(courseId: string): Promise<void> {
    const context = await contextOf(courseId);
    if (!context.course.isPublished) throw courseNotPublished();
    const at = now();
    work.assertOpen(context, { createdAt: at }, at);
  }

  /** One multi-row insert in `tx`, skipping pairs already enrolled; the audit record of each. */
  async function insertEnrollments(
    tx: Executor,
    pairs: { userId: string; courseId: string }[],
    actor: Actor,
  ): Promise<EnrollmentRow[]> {
    const rows = await createEnrollmentsRepository(tx).insertMany(pairs);
    for (const row of rows) await recordEnrolled(tx, row, actor);
    return rows;
  }

  /**
   * An administrator's enrollments are mailed to their learners (enrollment-mails.service.ts):
   * queued with them, announced at commit. A learner registered with their courses learns of
   * them from the invitation instead, and nothing else enrolls.
   */
  async function queueMails(tx: Executor, rows: EnrollmentRow[], actor: Actor) {
    if (actor?.role !== "admin" || !rows.length) return;
    await createEnrollmentMailsRepository(tx).queue(rows, now());
    await announceAtCommit(tx, "enrollment_mails", rows[0]!.courseId);
  }

  const recordEnrolled = (tx: Executor, row: EnrollmentRow, actor: Actor) =>
    deps.audit.append(tx, {
      type: "enrollment.created",
      actor,
      learnerId: row.userId,
      courseId: row.courseId,
      details: { enrollmentId: row.id },
    });

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
        await recordEnrolled(tx, inserted, input.actor ?? null);
        await queueMails(tx, [inserted], input.actor ?? null);
        return inserted;
      });
      changed(row.userId);
      moved();
      return one(row);
    },

    assertEnrollable,

    /**
     * Enrolls several learners in one course in one transaction, under the single
     * enrollment's rules. Every id must name a learner, or nothing changes; learners already
     * enrolled are skipped and reported. The learners' mails are queued, sent after the answer.
     */
    async enrollMany(input: { courseId: string; userIds: string[]; actor: Actor }) {
      const userIds = [...new Set(input.userIds)];
      const found = await deps.users.findUsers(userIds);
      const learners = new Set(found.filter((u) => u.role === "learner").map((u) => u.id));
      const strangers = userIds.filter((id) => !learners.has(id));
      if (strangers.length) throw notLearners(strangers.length);
      await assertEnrollable(input.courseId);
      const rows = await db.transaction(async (tx) => {
        const inserted = await insertEnrollments(
          tx,
          userIds.map((userId) => ({ userId, courseId: input.courseId })),
          input.actor,
        );
        await queueMails(tx, inserted, input.actor);
        return inserted;
      });
      for (const row of rows) changed(row.userId);
      moved();
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
        await deps.audit.append(tx, {
          type: "enrollment.removed",
          actor,
          learnerId: row.userId,
          courseId: row.courseId,
          details: { enrollmentId: row.id, progress: row.progress, wasCompleted: row.isCompleted },
        });
        return row;
      });
      changed(removed.userId);
      moved();
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
     * listForUser as JSON (UTF-8), for GET /api/enrollments/user/{id}: each course's
     * JSON is the catalogue's, made once, and the rest is small; the shape is the response
     * schema's by construction (json-answers.test.ts compares it with the schema).
     */
    async listForUserJson(userId: string, viewer?: UserRow): Promise<Buffer> {
      const load = async () => {
        // Cached, the learner is read with the rest (not taken from the viewer's session,
        // resolved earlier): an answer must not keep a name changed meanwhile.
        const found = await forUser(userId, answers ? undefined : viewer);
        // An unknown learner is not cached: the answer is the same and costs one lookup.
        if (!found) return undefined;
        const owner = JSON.stringify(found.user);
        const items = found.items.map(({ fields, entry }) =>
          enrollmentJson(fields, entry.json, owner),
        );
        return {
          userId,
          courseIds: found.items.map(({ fields }) => fields.courseId),
          json: Buffer.from(`[${items.join(",")}]`),
        };
      };
      const answer = answers ? await answers.get(userId, load) : await load();
      return answer?.json ?? EMPTY_LIST;
    },

    /**
     * A page of every enrollment as JSON text, for GET /api/enrollments, made like
     * listForUserJson: the zod serializer took a third of the portal's CPU on this page.
     */
    async pageJson(input: { limit: number; cursor?: string }) {
      const after = decodeCursor(input.cursor);
      const load = () => buildPage(input.limit, after);
      const key = JSON.stringify([input.limit, input.cursor ?? ""]);
      const page = (pages ? await pages.get(key, load) : undefined) ?? (await load());
      return { json: page.json, nextCursor: page.nextCursor };
    },

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

/** An enrollment with its relations as JSON text, from each part's own JSON. */
const enrollmentJson = (
  fields: ReturnType<typeof enrollmentFields>,
  course: string,
  user: string,
) => `${JSON.stringify(fields).slice(0, -1)},"course":${course},"user":${user}}`;

/** An enrollment's own fields in the response schema's order (course and user follow). */
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
