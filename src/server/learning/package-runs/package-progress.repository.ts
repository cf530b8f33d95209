import { and, eq, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { PackageProgressSort } from "../../../contract";
import type { Executor } from "../../db/client";
import { userAccounts } from "../../people";
import { enrollmentRecords, moduleCompletionRecords } from "../enrollments/enrollments.report";
import type { AttemptKey } from "./package-runs.repository";
import { type PackageAttemptRow, packageAttempts } from "./package-runs.table";

/** Escapes LIKE wildcards so a search for "50%" finds "50%", not everything. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** An instant as exact ISO text (milliseconds, UTC), as the API answers it. */
const isoText = (value: SQL) =>
  sql<string | null>`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Where a list page starts: after the row with this sort key and id. */
export interface ProgressCursor {
  key: string;
  id: string;
}

/** What the list and the export read of one learner and one package module. */
export interface ProgressRecord {
  userId: string;
  name: string;
  email: string;
  /** The open attempt's figures; null fields when none is open. */
  number: number | null;
  completion: PackageAttemptRow["completion"] | null;
  success: PackageAttemptRow["success"] | null;
  scoreScaled: number | null;
  reportedSeconds: number | null;
  seatSeconds: number | null;
  satisfied: boolean;
  attempts: number;
  lastActivityAt: string | null;
  completedAt: string | null;
  /** The row's sort key, for the next page's cursor. */
  sortKey: string;
}

/** Every attempt of the learner at the module, to count and date them. */
const everyAttempt = alias(packageAttempts, "every_attempt");
/** The alias as a FROM item (an alias alone renders as its name). */
const everyAttemptFrom = sql`${packageAttempts} as ${sql.identifier("every_attempt")}`;

/**
 * The learner's last activity on a module: a launch (an attempt made), the portal's last
 * look at the open content, or the content's last report to an attempt still open (an ended
 * attempt's `updated_at` is its reset, which is the administrator's doing).
 */
const lastActivity = sql`max(greatest(${everyAttempt.createdAt}, ${everyAttempt.lastSeatAt},
  case when ${everyAttempt.endedAt} is null then ${everyAttempt.updatedAt} end))`;

/**
 * The administrators' reads of package attempts: the enrolled learners of a course with
 * their standing on one of its package modules (the open attempt, the attempts counted, the
 * module's completion as enrollments record it), and the reset of an open attempt. Learners,
 * enrollments and completions are read through what their owners export for reports.
 */
export function createPackageProgressRepository(db: Executor) {
  const open = packageAttempts;
  const e = enrollmentRecords;
  const u = userAccounts;
  const done = moduleCompletionRecords;

  return {
    /**
     * The course's enrolled learners with their standing on the module, in the order asked
     * (by name case-insensitively, or by email; ties by user id), after `after`, at most
     * `limit`. `q` searches name and email; `userId` narrows to one learner.
     */
    async page(input: {
      courseId: string;
      moduleId: string;
      sort: PackageProgressSort;
      limit: number;
      after?: ProgressCursor;
      q?: string;
      userId?: string;
    }): Promise<ProgressRecord[]> {
      const { courseId, moduleId } = input;
      const key = input.sort.endsWith("name")
        ? sql<string>`lower(${u.name})`
        : sql<string>`${u.email}`;
      const descending = input.sort.startsWith("-");
      const after = input.after
        ? descending
          ? sql`(${key}, ${u.id}) < (${input.after.key}, ${input.after.id})`
          : sql`(${key}, ${u.id}) > (${input.after.key}, ${input.after.id})`
        : undefined;
      const search = input.q
        ? or(
            sql`${u.name} ilike ${likePattern(input.q)}`,
            sql`${u.email} ilike ${likePattern(input.q)}`,
          )
        : undefined;
      // The page of learners first (the course's enrollments, searched and sorted), then
      // their attempts and completions: a course of thousands sorts its learners once and
      // looks up the attempts of one page only.
      const listed = db
        .select({
          enrollmentId: sql<string>`${e.id}`.as("listed_enrollment_id"),
          userId: sql<string>`${u.id}`.as("listed_user_id"),
          name: sql<string>`${u.name}`.as("listed_name"),
          email: sql<string>`${u.email}`.as("listed_email"),
          sortKey: sql<string>`${key}`.as("listed_sort_key"),
        })
        .from(e)
        .innerJoin(u, eq(u.id, e.userId))
        .where(
          and(
            eq(e.courseId, courseId),
            input.userId ? eq(e.userId, input.userId) : undefined,
            search,
            after,
          ),
        )
        .orderBy(...(descending ? [sql`${key} desc`, sql`${u.id} desc`] : [key, u.id]))
        .limit(input.limit)
        .as("listed");
      const ofLearner = sql`${everyAttempt.userId} = ${listed.userId}
        and ${everyAttempt.courseId} = ${courseId} and ${everyAttempt.moduleId} = ${moduleId}`;
      return db
        .select({
          userId: listed.userId,
          name: listed.name,
          email: listed.email,
          number: open.number,
          completion: open.completion,
          success: open.success,
          scoreScaled: open.scoreScaled,
          reportedSeconds: open.reportedSeconds,
          seatSeconds: open.seatSeconds,
          satisfied: sql<boolean>`${open.satisfiedAt} is not null`,
          attempts: sql<number>`(select count(*)::int from ${everyAttemptFrom} where ${ofLearner})`,
          lastActivityAt: sql<
            string | null
          >`(select ${isoText(lastActivity)} from ${everyAttemptFrom} where ${ofLearner})`,
          completedAt: isoText(sql`${done.completedAt}`),
          sortKey: listed.sortKey,
        })
        .from(listed)
        .leftJoin(
          open,
          and(
            sql`${open.userId} = ${listed.userId}`,
            eq(open.courseId, courseId),
            eq(open.moduleId, moduleId),
            isNull(open.endedAt),
          ),
        )
        .leftJoin(
          done,
          and(sql`${done.enrollmentId} = ${listed.enrollmentId}`, eq(done.moduleId, moduleId)),
        )
        .orderBy(
          ...(descending
            ? [sql`${listed.sortKey} desc`, sql`${listed.userId} desc`]
            : [sql`${listed.sortKey}`, sql`${listed.userId}`]),
        );
    },

    /** Every attempt of a learner in a course, oldest first (their record's package modules). */
    async attemptsOf(userId: string, courseId: string): Promise<PackageAttemptRow[]> {
      return db
        .select()
        .from(packageAttempts)
        .where(and(eq(packageAttempts.userId, userId), eq(packageAttempts.courseId, courseId)))
        .orderBy(packageAttempts.moduleId, packageAttempts.number);
    },

    /** The modules a learner completed in a course, with when (as ISO text). */
    async completionsOf(userId: string, courseId: string): Promise<Map<string, string>> {
      const rows = await db
        .select({ moduleId: done.moduleId, completedAt: isoText(sql`${done.completedAt}`) })
        .from(done)
        .innerJoin(e, eq(e.id, done.enrollmentId))
        .where(and(eq(e.userId, userId), eq(e.courseId, courseId)));
      return new Map(rows.map((r) => [r.moduleId, r.completedAt ?? ""]));
    },

    /**
     * Every learner's attempts at every package module, one group per learner and module,
     * `limit` groups after `after` in (course, module, learner) order (the CSV export).
     */
    async groups(
      after: { courseId: string; moduleId: string; userId: string } | null,
      limit: number,
    ) {
      const a = packageAttempts;
      return db
        .select({
          courseId: a.courseId,
          moduleId: a.moduleId,
          userId: a.userId,
          attempts: sql<number>`count(*)::int`,
          lastActivityAt: isoText(
            sql`max(greatest(${a.createdAt}, ${a.lastSeatAt},
              case when ${a.endedAt} is null then ${a.updatedAt} end))`,
          ),
          openId: sql<string | null>`max(case when ${a.endedAt} is null then ${a.id} end)`,
        })
        .from(a)
        .where(
          after
            ? sql`(${a.courseId}, ${a.moduleId}, ${a.userId}) > (${after.courseId}, ${after.moduleId}, ${after.userId})`
            : undefined,
        )
        .groupBy(a.courseId, a.moduleId, a.userId)
        .orderBy(a.courseId, a.moduleId, a.userId)
        .limit(limit);
    },

    /** Attempts by id (the open attempts of a page of groups). */
    async attemptsById(ids: string[]): Promise<PackageAttemptRow[]> {
      if (!ids.length) return [];
      return db.select().from(packageAttempts).where(inArray(packageAttempts.id, ids));
    },

    /** For each learner of a course, the modules they completed and when (the export). */
    async completionsIn(courseId: string, userIds: string[]) {
      if (!userIds.length) return [];
      return db
        .select({
          userId: e.userId,
          moduleId: done.moduleId,
          completedAt: isoText(sql`${done.completedAt}`),
        })
        .from(done)
        .innerJoin(e, eq(e.id, done.enrollmentId))
        .where(and(eq(e.courseId, courseId), inArray(e.userId, userIds)));
    },

    /**
     * Ends the learner's open attempt at the module, by an administrator: the ended row, or
     * undefined when none was open. One statement, so two resets at once end it once.
     */
    async endOpen(key: AttemptKey, endedBy: string): Promise<PackageAttemptRow | undefined> {
      const [row] = await db
        .update(packageAttempts)
        .set({ endedAt: sql`now()`, endedBy, updatedAt: sql`now()` })
        .where(
          and(
            eq(packageAttempts.userId, key.userId),
            eq(packageAttempts.courseId, key.courseId),
            eq(packageAttempts.moduleId, key.moduleId),
            isNull(packageAttempts.endedAt),
          ),
        )
        .returning();
      return row;
    },
  };
}
