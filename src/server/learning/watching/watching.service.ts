import {
  type Course,
  type CourseWatch,
  type HeartbeatBody,
  isModuleUnlocked,
  type Module,
  type ModuleWatch,
} from "../../../contract";
import type { Database } from "../../db/client";
import { defineStep } from "../enrollments/completion-steps";
import { current, type Policy } from "./beat";
import { createBeatRecorder } from "./beat-recorder";
import { roundSeconds } from "./intervals";
import {
  courseNotFound,
  enrollmentNotFound,
  moduleLocked,
  moduleNotInCourse,
  notAVideo,
  notEnrolled,
  notSeatedEnough,
  notWatchedEnough,
} from "./watching.errors";
import { createWatchingRepository } from "./watching.repository";
import type { ModuleWatchRow } from "./watching.table";

/**
 * Verified watching as a rule on completing a module: in a verified course the watched share
 * and seat time must be met before 'Mark as Complete' counts. Its settings are the course's
 * own completion policy, which every step already has.
 */
export const watchingStep = defineStep<null>({
  key: "modules",
  load: async () => null,
  async checkModule(tx, { enrollment, course, moduleId }) {
    if (course.completionPolicy !== "verified") return;
    const module = course.modules.find((m) => m.id === moduleId)!;
    // A package's content is measured by its own run (package-runs), not by watching.
    if (module.kind !== "video") return;
    const key = { userId: enrollment.userId, courseId: course.id, moduleId };
    const row = current(await createWatchingRepository(tx).findWatch(key), module, course);
    const e = evaluate(row, course);
    if (!e.watchMet) throw notWatchedEnough(course.minWatchPercent);
    if (!e.seatMet) throw notSeatedEnough(course.minSeatSeconds ?? 0);
  },
});

export interface WatchingServiceDeps {
  db: Database;
  /** The courses feature: courses with their modules and completion settings. */
  courses: { findMany(ids: string[]): Promise<Map<string, Course>> };
  /** The enrollments feature: the learner's completed modules, or null when not enrolled. */
  enrollments: { completedModules(userId: string, courseId: string): Promise<string[] | null> };
  /** The auth feature: learners' names and emails for the CSV export. */
  users: { findUsers(ids: string[]): Promise<{ id: string; name: string; email: string }[]> };
  /** The clock; tests move time by moving the stored clocks back instead. */
  now?: () => Date;
}

/** What a record means under the course's completion rule. */
function evaluate(row: ModuleWatchRow | undefined, policy: Policy) {
  const duration = row?.durationSeconds ?? null;
  const watched = row?.watchedSeconds ?? 0;
  const seat = row?.seatSeconds ?? 0;
  // The epsilon keeps 3.6 s of a 4 s video at 90 %, not 89 %, despite binary fractions.
  const watchedPercent = duration
    ? Math.min(100, Math.floor((watched / duration) * 100 + 1e-6))
    : 0;
  const minSeat = policy.minSeatSeconds ?? 0;
  const watchMet = duration !== null && watchedPercent >= policy.minWatchPercent;
  const seatMet = seat >= minSeat;
  const remainingSeconds =
    policy.completionPolicy === "manual"
      ? 0
      : Math.max(
          0,
          duration === null ? 0 : (policy.minWatchPercent / 100) * duration - watched,
          minSeat - seat,
        );
  return {
    duration,
    watched,
    seat,
    watchedPercent,
    watchMet,
    seatMet,
    canComplete: policy.completionPolicy === "manual" || (watchMet && seatMet),
    remainingSeconds: roundSeconds(remainingSeconds),
  };
}

function toModuleWatch(module: Module, row: ModuleWatchRow | undefined, policy: Policy) {
  const e = evaluate(row, policy);
  return {
    moduleId: module.id,
    moduleTitle: module.title,
    durationSeconds: e.duration,
    watchedSeconds: roundSeconds(e.watched),
    watchedPercent: e.watchedPercent,
    seatSeconds: roundSeconds(e.seat),
    position: row?.positionSeconds ?? 0,
    canComplete: e.canComplete,
    remainingSeconds: e.remainingSeconds,
    lastHeartbeatAt: row?.lastHeartbeatAt?.toISOString() ?? null,
  } satisfies ModuleWatch;
}

/**
 * Verified watching. Heartbeats from the player are merged into de-duplicated
 * watched seconds per learner and module, credited no faster than the wall clock; the
 * watching step (`watchingStep`) holds 'Mark as Complete' back in verified courses until
 * the rule is met.
 *
 * The video's length: the module's stated duration is whole minutes (SPEC section 9), too
 * coarse to measure a share by, and the client's report cannot be trusted alone (a learner
 * reporting a 1-second video would reach 90 % at once). So the first reported length is
 * fixed (later reports must agree with it) and, in verified courses, accepted only within a
 * minute either side of the stated duration.
 */
export function createWatchingService(deps: WatchingServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const repo = createWatchingRepository(db);
  const beats = createBeatRecorder({ db, now });

  async function courseOf(courseId: string): Promise<Course> {
    const course = (await deps.courses.findMany([courseId])).get(courseId);
    if (!course) throw courseNotFound();
    return course;
  }

  async function watchOf(course: Course, userId: string): Promise<CourseWatch> {
    const rows = new Map(
      (await repo.watchesOf({ userId, courseId: course.id })).map((r) => [r.moduleId, r]),
    );
    return {
      courseId: course.id,
      userId,
      completionPolicy: course.completionPolicy,
      minWatchPercent: course.minWatchPercent,
      minSeatSeconds: course.minSeatSeconds,
      modules: course.modules.map((m) =>
        toModuleWatch(m, current(rows.get(m.id), m, course), course),
      ),
    };
  }

  return {
    /** Records one heartbeat and answers the module's merged state. */
    async heartbeat(input: { userId: string; body: HeartbeatBody }): Promise<ModuleWatch> {
      const { userId, body } = input;
      const course = await courseOf(body.courseId);
      if (!course.isPublished) throw courseNotFound();
      const completed = await deps.enrollments.completedModules(userId, course.id);
      if (completed === null) throw notEnrolled();
      const order = course.modules.map((m) => m.id);
      const module = course.modules.find((m) => m.id === body.moduleId);
      if (!module) throw moduleNotInCourse();
      if (!isModuleUnlocked(order, module.id, completed)) throw moduleLocked();
      if (module.kind !== "video") throw notAVideo();

      const row = await beats.record({ userId, course, module, body });
      return toModuleWatch(module, row, course);
    },

    /** The learner's own watching of a course (the player resumes and shows progress). */
    async mine(input: { userId: string; courseId: string }): Promise<CourseWatch> {
      const course = await courseOf(input.courseId);
      if (!course.isPublished) throw courseNotFound();
      if ((await deps.enrollments.completedModules(input.userId, course.id)) === null) {
        throw courseNotFound();
      }
      return watchOf(course, input.userId);
    },

    /** A learner's watching of a course, for administrators. */
    async ofLearner(input: { userId: string; courseId: string }): Promise<CourseWatch> {
      const course = await courseOf(input.courseId);
      if ((await deps.enrollments.completedModules(input.userId, course.id)) === null) {
        throw enrollmentNotFound();
      }
      return watchOf(course, input.userId);
    },

    /** Every record with its learner, course and module, page by page (CSV export). */
    async *csvRecords(pageSize = 500) {
      let after: { userId: string; courseId: string; moduleId: string } | null = null;
      const courses = new Map<string, Course>();
      for (;;) {
        const rows: ModuleWatchRow[] = await repo.page(after, pageSize);
        if (!rows.length) return;
        const missing = [...new Set(rows.map((r) => r.courseId))].filter((id) => !courses.has(id));
        for (const [id, c] of await deps.courses.findMany(missing)) courses.set(id, c);
        const users = new Map(
          (await deps.users.findUsers([...new Set(rows.map((r) => r.userId))])).map((u) => [
            u.id,
            u,
          ]),
        );
        for (const row of rows) {
          const course = courses.get(row.courseId);
          const module = course?.modules.find((m) => m.id === row.moduleId);
          const user = users.get(row.userId);
          // Records of deleted modules or replaced videos no longer describe the course.
          if (!course || !module || !user || !current(row, module, course)) continue;
          const watch = toModuleWatch(module, row, course);
          yield {
            learnerName: user.name,
            learnerEmail: user.email,
            courseTitle: course.title,
            moduleTitle: module.title,
            watchedPercent: watch.watchedPercent,
            watchedSeconds: Math.round(watch.watchedSeconds),
            seatSeconds: Math.round(watch.seatSeconds),
            lastWatchedAt: watch.lastHeartbeatAt ?? "",
          };
        }
        const last = rows[rows.length - 1]!;
        after = { userId: last.userId, courseId: last.courseId, moduleId: last.moduleId };
        if (rows.length < pageSize) return;
      }
    },
  };
}

export type WatchingService = ReturnType<typeof createWatchingService>;
