import {
  type Course,
  csvRow,
  type LearnerPackageProgress,
  type Module,
  PACKAGE_STANDARD_LABELS,
  type PackageProgressRow,
  type PackageProgressSort,
  type PackageProgressStatus,
} from "../../../contract";
import type { Database } from "../../db/client";
import type { AuditService } from "../../platform";
import { invalidField } from "../../plugins/errors";
import {
  courseNotFound,
  learnerNotEnrolled,
  moduleNotInCourse,
  notAPackageModule,
  nothingToReset,
} from "./package-progress.errors";
import {
  createPackageProgressRepository,
  type ProgressCursor,
  type ProgressRecord,
} from "./package-progress.repository";
import type { PackageAttemptRow } from "./package-runs.table";

export interface PackageProgressDeps {
  db: Database;
  /** The courses feature: courses with their modules, drafts included. */
  courses: { findMany(ids: string[]): Promise<Map<string, Course>> };
  /** The enrollments feature: whether a learner is enrolled in a course. */
  enrollments: { isEnrolled(userId: string, courseId: string): Promise<boolean> };
  /** The auth feature: learners' names and emails for the portal's export. */
  users: { findUsers(ids: string[]): Promise<{ id: string; name: string; email: string }[]> };
  audit: Pick<AuditService, "append">;
}

type Attempt = Pick<PackageAttemptRow, "completion" | "success"> & { satisfied: boolean };

/**
 * A learner's status from the open attempt (PACKAGE_PROGRESS_STATUSES): success reported
 * decides first (a failed test fails even if its pages were all seen), then completion or the
 * module's rule met, and a launched attempt with nothing reported is in progress.
 */
function statusOf(attempt: Attempt | null): PackageProgressStatus {
  if (!attempt) return "Not started";
  if (attempt.success === "passed") return "Passed";
  if (attempt.success === "failed") return "Failed";
  if (attempt.completion === "completed" || attempt.satisfied) return "Completed";
  return "In progress";
}

/** The package's scaled score (-1..1) as a whole percent. */
const percentOf = (scaled: number | null) => (scaled === null ? null : Math.round(scaled * 100));

/** The figures of a row that come from the attempts and the completion record. */
function standing(
  open:
    | (Attempt &
        Pick<PackageAttemptRow, "number" | "scoreScaled" | "reportedSeconds" | "seatSeconds">)
    | null,
  attempts: number,
  lastActivityAt: string | null,
  completedAt: string | null,
) {
  return {
    status: statusOf(open),
    scorePercent: percentOf(open?.scoreScaled ?? null),
    reportedSeconds: Math.round(open?.reportedSeconds ?? 0),
    seatSeconds: Math.round(open?.seatSeconds ?? 0),
    attempts,
    currentAttempt: open?.number ?? null,
    lastActivityAt,
    moduleCompleted: completedAt !== null,
    moduleCompletedAt: completedAt,
  };
}

function toRow(record: ProgressRecord): PackageProgressRow {
  const open =
    record.number === null
      ? null
      : {
          number: record.number,
          completion: record.completion ?? "unknown",
          success: record.success ?? "unknown",
          satisfied: record.satisfied,
          scoreScaled: record.scoreScaled,
          reportedSeconds: record.reportedSeconds ?? 0,
          seatSeconds: record.seatSeconds ?? 0,
        };
  return {
    learner: { id: record.userId, name: record.name, email: record.email },
    ...standing(open, record.attempts, record.lastActivityAt, record.completedAt),
  };
}

const encodeCursor = (record: ProgressRecord) =>
  Buffer.from(JSON.stringify([record.sortKey, record.userId])).toString("base64url");

function decodeCursor(value: string | undefined): ProgressCursor | undefined {
  if (!value) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
  } catch {
    parsed = null;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    typeof parsed[0] !== "string" ||
    typeof parsed[1] !== "string" ||
    !/^[A-Za-z0-9_-]{1,64}$/.test(parsed[1])
  ) {
    throw invalidField(
      "validation.invalid_cursor",
      "cursor",
      "This page of the list has expired: start again from the first page.",
    );
  }
  return { key: parsed[0], id: parsed[1] };
}

/** The export's header, then one line per learner. */
const CSV_HEADER = [
  "Learner",
  "Email",
  "Status",
  "Score (%)",
  "Reported Time (s)",
  "Seat Time (s)",
  "Attempts",
  "Current Attempt",
  "Module Completed",
  "Module Completed At",
  "Last Activity At",
];

const csvLine = (row: PackageProgressRow) =>
  csvRow([
    row.learner.name,
    row.learner.email,
    row.status,
    row.scorePercent,
    row.reportedSeconds,
    row.seatSeconds,
    row.attempts,
    row.currentAttempt,
    row.moduleCompleted ? "Yes" : "No",
    row.moduleCompletedAt,
    row.lastActivityAt,
  ]);

/** The export's page size: a few hundred learners per statement. */
const CSV_PAGE = 500;

/**
 * The administrators' view of package modules: each enrolled learner's standing on a SCORM
 * or cmi5 module (the current attempt's status, score and times, the attempts started, the
 * module's completion), its CSV export, and the reset of a learner's attempt.
 *
 * A reset ends the open attempt (by the administrator, recorded in the audit trail); the
 * learner's next launch opens the next attempt, with nothing reported. It changes no record
 * of credit: a module the learner completed stays complete, as do the course and its
 * certificate. The ended attempt stays as the record of what was done.
 */
export function createPackageProgressService(deps: PackageProgressDeps) {
  const { db } = deps;
  const repo = createPackageProgressRepository(db);

  async function courseOf(courseId: string): Promise<Course> {
    const course = (await deps.courses.findMany([courseId])).get(courseId);
    if (!course) throw courseNotFound();
    return course;
  }

  /** The course and its package module, or the refusal that says what is wrong. */
  async function packageModuleOf(courseId: string, moduleId: string) {
    const course = await courseOf(courseId);
    const module = course.modules.find((m) => m.id === moduleId);
    if (!module) throw moduleNotInCourse();
    if (module.kind === "video") throw notAPackageModule();
    return { course, module };
  }

  async function page(input: {
    courseId: string;
    moduleId: string;
    limit: number;
    cursor?: string;
    q?: string;
    sort: PackageProgressSort;
  }) {
    const after = decodeCursor(input.cursor);
    await packageModuleOf(input.courseId, input.moduleId);
    const records = await repo.page({
      courseId: input.courseId,
      moduleId: input.moduleId,
      sort: input.sort,
      limit: input.limit + 1,
      after,
      q: input.q || undefined,
    });
    const shown = records.slice(0, input.limit);
    const last = shown.at(-1);
    return {
      rows: shown.map(toRow),
      nextCursor: records.length > input.limit && last ? encodeCursor(last) : null,
    };
  }

  async function rowOf(courseId: string, moduleId: string, userId: string) {
    const [record] = await repo.page({ courseId, moduleId, userId, sort: "name", limit: 1 });
    if (!record) throw learnerNotEnrolled();
    return toRow(record);
  }

  return {
    page,

    /**
     * The module's learners as CSV lines (every page, in the order asked); the course and
     * module are checked before the first line, so a wrong one is refused, not a broken file.
     */
    async csv(input: {
      courseId: string;
      moduleId: string;
      q?: string;
      sort: PackageProgressSort;
    }) {
      const { course, module } = await packageModuleOf(input.courseId, input.moduleId);
      const q = input.q || undefined;
      async function* lines() {
        yield csvRow(CSV_HEADER);
        let after: ProgressCursor | undefined;
        for (;;) {
          const records = await repo.page({
            courseId: course.id,
            moduleId: module.id,
            sort: input.sort,
            limit: CSV_PAGE,
            after,
            q,
          });
          for (const record of records) yield csvLine(toRow(record));
          const last = records.at(-1);
          if (!last || records.length < CSV_PAGE) return;
          after = { key: last.sortKey, id: last.userId };
        }
      }
      return { course, module, lines: lines() };
    },

    /**
     * Ends the learner's open attempt at the module; answers their row as it now stands.
     * Refused when the module plays a video (409), the learner is not enrolled (404) or has
     * no attempt open (409).
     */
    async reset(input: {
      courseId: string;
      moduleId: string;
      userId: string;
      actor: { id: string; role: "admin" | "learner" };
    }): Promise<PackageProgressRow> {
      const { course, module } = await packageModuleOf(input.courseId, input.moduleId);
      if (!(await deps.enrollments.isEnrolled(input.userId, course.id))) {
        throw learnerNotEnrolled();
      }
      const key = { userId: input.userId, courseId: course.id, moduleId: module.id };
      await db.transaction(async (tx) => {
        const ended = await createPackageProgressRepository(tx).endOpen(key, input.actor.id);
        if (!ended) throw nothingToReset();
        await deps.audit.append(tx, {
          type: "package.attempt_reset",
          actor: input.actor,
          learnerId: input.userId,
          courseId: course.id,
          moduleId: module.id,
          details: { attemptNumber: ended.number, moduleId: module.id, moduleTitle: module.title },
        });
      });
      return rowOf(course.id, module.id, input.userId);
    },

    /** A learner's package modules of a course, in the course's order (their record). */
    async ofLearner(input: { userId: string; courseId: string }): Promise<LearnerPackageProgress> {
      const course = await courseOf(input.courseId);
      if (!(await deps.enrollments.isEnrolled(input.userId, course.id))) {
        throw learnerNotEnrolled();
      }
      const [attempts, completions] = await Promise.all([
        repo.attemptsOf(input.userId, course.id),
        repo.completionsOf(input.userId, course.id),
      ]);
      const modules = course.modules.flatMap((module) => {
        if (module.kind === "video") return [];
        const mine = attempts.filter((a) => a.moduleId === module.id);
        return [
          {
            moduleId: module.id,
            moduleTitle: module.title,
            kind: module.kind,
            ...standingOfAttempts(mine, completions.get(module.id) ?? null),
          },
        ];
      });
      return { courseId: course.id, userId: input.userId, modules };
    },

    /**
     * Every learner's standing on every package module they launched, page by page, with
     * their names and the course's and module's titles (the portal's CSV export).
     */
    async *csvRecords(pageSize = CSV_PAGE) {
      let after: { courseId: string; moduleId: string; userId: string } | null = null;
      const courses = new Map<string, Course>();
      for (;;) {
        const groups = await repo.groups(after, pageSize);
        if (!groups.length) return;
        const missing = [...new Set(groups.map((g) => g.courseId))].filter(
          (id) => !courses.has(id),
        );
        for (const [id, c] of await deps.courses.findMany(missing)) courses.set(id, c);
        const userIds = [...new Set(groups.map((g) => g.userId))];
        const users = new Map((await deps.users.findUsers(userIds)).map((u) => [u.id, u]));
        const opens = new Map(
          (await repo.attemptsById(groups.flatMap((g) => (g.openId ? [g.openId] : [])))).map(
            (a) => [a.id, a],
          ),
        );
        const completed = new Map<string, string>();
        for (const courseId of new Set(groups.map((g) => g.courseId))) {
          const learners = [
            ...new Set(groups.filter((g) => g.courseId === courseId).map((g) => g.userId)),
          ];
          for (const c of await repo.completionsIn(courseId, learners)) {
            completed.set(`${courseId}/${c.moduleId}/${c.userId}`, c.completedAt ?? "");
          }
        }
        for (const group of groups) {
          const course = courses.get(group.courseId);
          const module = course?.modules.find((m) => m.id === group.moduleId);
          const user = users.get(group.userId);
          // Attempts of modules removed, or now playing a video, no longer describe the course.
          if (!course || !module || module.kind === "video" || !user) continue;
          const open = group.openId ? (opens.get(group.openId) ?? null) : null;
          const row = standing(
            open && { ...open, satisfied: open.satisfiedAt !== null },
            group.attempts,
            group.lastActivityAt,
            completed.get(`${group.courseId}/${group.moduleId}/${group.userId}`) ?? null,
          );
          yield {
            learnerName: user.name,
            learnerEmail: user.email,
            courseTitle: course.title,
            moduleTitle: module.title,
            content: contentLabel(module),
            ...row,
          };
        }
        const last = groups.at(-1)!;
        after = { courseId: last.courseId, moduleId: last.moduleId, userId: last.userId };
        if (groups.length < pageSize) return;
      }
    },
  };
}

/** What a package module plays, as the export names it ("SCORM 1.2"). */
const contentLabel = (module: Module) =>
  module.package ? PACKAGE_STANDARD_LABELS[module.package.standard] : module.kind;

/** A learner's standing on one module from all their attempts at it. */
function standingOfAttempts(attempts: PackageAttemptRow[], completedAt: string | null) {
  const open = attempts.find((a) => a.endedAt === null) ?? null;
  const times = attempts.flatMap((a) => [
    a.createdAt,
    ...(a.lastSeatAt ? [a.lastSeatAt] : []),
    ...(a.endedAt === null ? [a.updatedAt] : []),
  ]);
  const last = times.length ? new Date(Math.max(...times.map((t) => t.getTime()))) : null;
  return standing(
    open && { ...open, satisfied: open.satisfiedAt !== null },
    attempts.length,
    last?.toISOString() ?? null,
    completedAt,
  );
}

export type PackageProgressService = ReturnType<typeof createPackageProgressService>;
