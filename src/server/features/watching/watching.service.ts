import {
  type Course,
  type CourseWatch,
  type HeartbeatBody,
  isModuleUnlocked,
  MAX_PLAYBACK_RATE,
  type Module,
  type ModuleWatch,
} from "../../../contract";
import type { Database, Executor } from "../../db/client";
import type { ModuleRequirement } from "../enrollments/completion-steps";
import { creditIntervals, roundSeconds, totalSeconds } from "./intervals";
import {
  beyondDuration,
  courseNotFound,
  durationMismatch,
  enrollmentNotFound,
  impossibleReport,
  moduleLocked,
  moduleNotInCourse,
  notEnrolled,
  notSeatedEnough,
  notWatchedEnough,
} from "./watching.errors";
import { createWatchingRepository } from "./watching.repository";
import type { Intervals, ModuleWatchRow } from "./watching.table";

/** Time unspent since the clock, up to this, can be credited: covers a late heartbeat. */
const MAX_CREDIT_GAP_SECONDS = 30;
/** Credit may run this far ahead of the wall clock (timer jitter); it is then owed back. */
const CREDIT_TOLERANCE_SECONDS = 1;
/** Extra time allowed when judging a report impossible (network delay between beats). */
const REPORT_SLACK_SECONDS = 5;
/** Intervals may end this far past the video's length (players report the last frame late). */
const END_SLACK_SECONDS = 0.5;
/** A second report of the video's length may differ by this much (container rounding). */
const DURATION_SLACK_SECONDS = 2;

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

interface Policy {
  completionPolicy: Course["completionPolicy"];
  minWatchPercent: number;
  minSeatSeconds: number | null;
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
 * Whether a reported video length fits the module's stated whole minutes (a minute either
 * way for rounding). Only verified courses insist: elsewhere the length only places resume.
 */
const lengthFits = (module: Module, seconds: number) =>
  seconds >= (module.duration - 1) * 60 && seconds <= (module.duration + 1) * 60;

/**
 * The record that counts for the module now: none if it was made for another video (since
 * replaced), or, in a verified course, with a length that does not fit the module (recorded
 * while the course was manual).
 */
function current(row: ModuleWatchRow | undefined, module: Module, policy: Policy) {
  if (!row || row.videoUrl !== module.videoUrl) return undefined;
  if (
    policy.completionPolicy === "verified" &&
    row.durationSeconds !== null &&
    !lengthFits(module, row.durationSeconds)
  ) {
    return undefined;
  }
  return row;
}

/** The enrollment was removed while the heartbeat ran: its foreign key refuses the rows. */
async function refuseIfUnenrolled<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const code =
      (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
    if (code === "23503") throw notEnrolled();
    throw error;
  }
}

/**
 * Verified watching. Heartbeats from the player are merged into de-duplicated
 * watched seconds per learner and module, credited no faster than the wall clock; the
 * completion guard holds 'Mark as Complete' back in verified courses until the rule is met.
 *
 * The video's length: the module's stated duration is whole minutes (SPEC section 9), too
 * coarse to measure a share by, and the client's report cannot be trusted alone (a learner
 * reporting a 1-second video would reach 90 % at once). So the first reported length is
 * fixed (later reports must agree with it) and, in verified courses, accepted only within a
 * minute either side of the stated duration.
 */
/**
 * Verified watching as a rule on completing a module: the course's watched share and seat
 * time must be met before 'Mark as Complete' counts.
 */
export function createWatchingRequirement(deps: {
  courses: { findMany(ids: string[]): Promise<Map<string, Course>> };
}): ModuleRequirement {
  return {
    async prepare(input) {
      // A missing course is completeModule's to report, as it always did.
      const course = (await deps.courses.findMany([input.courseId])).get(input.courseId);
      return async (tx: Executor) => {
        if (course?.completionPolicy !== "verified") return;
        const module = course.modules.find((m) => m.id === input.moduleId);
        if (!module) throw moduleNotInCourse();
        const row = current(await createWatchingRepository(tx).findWatch(input), module, course);
        const e = evaluate(row, course);
        if (!e.watchMet) throw notWatchedEnough(course.minWatchPercent);
        if (!e.seatMet) throw notSeatedEnough(course.minSeatSeconds ?? 0);
      };
    },
  };
}

export function createWatchingService(deps: WatchingServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const repo = createWatchingRepository(db);

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

      const key = { userId, courseId: course.id };
      const row = await refuseIfUnenrolled(() =>
        db.transaction(async (tx) => {
          const txRepo = createWatchingRepository(tx);
          await txRepo.commitWithoutFlush();
          const at = now();
          const clock = await txRepo.lockClock(key, at);
          const stored = await txRepo.findWatch({ ...key, moduleId: module.id });
          const before = current(stored, module, course);

          const duration = before?.durationSeconds ?? body.duration;
          if (before?.durationSeconds) {
            if (Math.abs(body.duration - before.durationSeconds) > DURATION_SLACK_SECONDS) {
              throw durationMismatch();
            }
          } else if (course.completionPolicy === "verified" && !lengthFits(module, body.duration)) {
            throw durationMismatch();
          }
          const limit = duration + END_SLACK_SECONDS;
          if (body.position > limit || body.intervals.some(([, end]) => end > limit)) {
            throw beyondDuration();
          }

          const reported: Intervals = body.intervals.map(([s, e]) => [s, Math.min(e, duration)]);
          const played = totalSeconds(reported);
          // More media time than the fastest allowed playback fits into the time since the
          // previous heartbeat: not a player's report. Refused whole, nothing stored.
          const sinceBeat = Math.max(0, (at.getTime() - clock.lastBeatAt.getTime()) / 1000);
          if (played > (sinceBeat + REPORT_SLACK_SECONDS) * MAX_PLAYBACK_RATE) {
            throw impossibleReport();
          }

          // The budget: wall-clock time not yet spent on credit, at most the last 30 s.
          const from = Math.max(
            clock.creditClockAt.getTime(),
            at.getTime() - MAX_CREDIT_GAP_SECONDS * 1000,
          );
          const budget =
            body.visible === false
              ? 0
              : Math.max(0, (at.getTime() - from) / 1000 + CREDIT_TOLERANCE_SECONDS);
          const rate = Math.min(Math.max(body.playbackRate ?? 1, 0.0625), MAX_PLAYBACK_RATE);
          const seat = Math.min(played / rate, budget);
          const merged = creditIntervals(before?.intervals ?? [], reported, budget);
          // Time spent in a hidden page is gone: it must not be banked for a later report.
          const spent =
            body.visible === false ? (at.getTime() - from) / 1000 : Math.max(seat, merged.credited);
          const movedClock = { creditClockAt: new Date(from + spent * 1000), lastBeatAt: at };
          return txRepo.saveBeat(movedClock, {
            ...key,
            moduleId: module.id,
            videoUrl: module.videoUrl,
            durationSeconds: duration,
            intervals: merged.intervals,
            watchedSeconds: roundSeconds(totalSeconds(merged.intervals)),
            seatSeconds: roundSeconds((before?.seatSeconds ?? 0) + seat),
            positionSeconds: roundSeconds(Math.min(body.position, duration)),
            heartbeats: (before?.heartbeats ?? 0) + 1,
            lastHeartbeatAt: at,
            updatedAt: at,
          });
        }),
      );
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

    /**
     * The completion guard of completeModule: prepared before its transaction, run inside it.
     * In a verified course it refuses (409) until the module was watched and sat through
     * enough; the record is read in the transaction that records the completion.
     */
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
