import { and, asc, desc, eq, getTableColumns, ilike, inArray, or, sql } from "drizzle-orm";
import { courseSummaries } from "../../catalogue";
import type { Executor } from "../../db/client";
import { afterCursor, exactTime, type KeysetCursor } from "../../db/cursor";
import { preparedOnce } from "../../db/prepared";
import { jsonRecordsOf, recordsValue } from "../../db/records";
import { userAccounts } from "../../people";
import {
  completionRecomputes,
  type EnrollmentRow,
  enrollments,
  moduleCompletions,
} from "./enrollments.table";

/** Escapes LIKE wildcards so a search for "50%" finds "50%", not everything. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Enrollments written by one statement: a few parameters each, far below the 65,535 allowed. */
const INSERT_SLICE = 5_000;

/**
 * An enrollment's completions as [module id, epoch ms] pairs in completion order, read in the
 * same statement as the enrollment (one round trip for the lock and what a step checks).
 */
const completionsJson = sql<
  [string, number][]
>`coalesce((select json_agg(json_build_array(${moduleCompletions.moduleId}, round(extract(epoch from ${moduleCompletions.completedAt}) * 1000)) order by ${moduleCompletions.completedAt}, ${moduleCompletions.moduleId}) from ${moduleCompletions} where ${moduleCompletions.enrollmentId} = ${enrollments.id}), '[]'::json)`;

/** When each module was completed, in completion order. */
const completionTimes = (pairs: [string, number][]) =>
  new Map(pairs.map(([id, ms]) => [id, new Date(Number(ms))]));

/**
 * Every completion of the given enrollments, each enrollment's in completion order.
 * `= any($1)`: one prepared statement for any number of ids (an IN list is not).
 */
const completionsOf = (db: Executor, enrollmentIds: string[]) =>
  preparedOnce(db, "module_completions_of", (d) =>
    d
      .select()
      .from(moduleCompletions)
      .where(sql`${moduleCompletions.enrollmentId} = any(${sql.placeholder("ids")})`)
      .orderBy(asc(moduleCompletions.completedAt), asc(moduleCompletions.moduleId))
      .prepare("module_completions_of"),
  ).execute({ ids: enrollmentIds });

/** When each module of each enrollment was completed, in completion order. */
async function completionTimesOf(db: Executor, enrollmentIds: string[]) {
  const byEnrollment = new Map<string, Map<string, Date>>();
  if (!enrollmentIds.length) return byEnrollment;
  for (const row of await completionsOf(db, enrollmentIds)) {
    const times = byEnrollment.get(row.enrollmentId) ?? new Map<string, Date>();
    times.set(row.moduleId, row.completedAt);
    byEnrollment.set(row.enrollmentId, times);
  }
  return byEnrollment;
}

/** Locked enrollments with when each of their modules was completed (as withCompletions). */
const withCompletionsOf = async (db: Executor, rows: EnrollmentRow[]) => {
  const times = await completionTimesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ ...row, completions: times.get(row.id) ?? new Map<string, Date>() }));
};

/** The key of a learner's enrollment in a course, as lockManyWithCompletions answers it. */
export const enrollmentKey = (k: { userId: string; courseId: string }) =>
  `${k.userId}\u0000${k.courseId}`;

export function createEnrollmentsRepository(db: Executor) {
  return {
    /**
     * The enrollment with when each of its modules was completed (in completion order); locked
     * for the rest of the transaction when `lock` is set, so a step and a completion of the
     * same learner never interleave. Locked, the completions are read by a second statement:
     * one that waited for the lock still reads with the snapshot it started with, and would
     * miss the completion that the transaction it waited for committed.
     */
    async withCompletions(
      key: { userId: string; courseId: string } | { id: string },
      lock: boolean,
    ): Promise<(EnrollmentRow & { completions: Map<string, Date> }) | undefined> {
      const where =
        "id" in key
          ? eq(enrollments.id, key.id)
          : and(eq(enrollments.userId, key.userId), eq(enrollments.courseId, key.courseId));
      if (lock) {
        const [row] = await db.select().from(enrollments).where(where).for("update");
        if (!row) return undefined;
        const [locked] = await withCompletionsOf(db, [row]);
        return locked;
      }
      const [row] = await db
        .select({ ...getTableColumns(enrollments), completions: completionsJson })
        .from(enrollments)
        .where(where);
      if (!row) return undefined;
      return { ...row, completions: completionTimes(row.completions) };
    },

    async findByUserAndCourse(
      userId: string,
      courseId: string,
    ): Promise<EnrollmentRow | undefined> {
      const [row] = await db
        .select()
        .from(enrollments)
        .where(and(eq(enrollments.userId, userId), eq(enrollments.courseId, courseId)))
        .limit(1);
      return row;
    },

    /**
     * Several learners' enrollments with their completions, locked in id order (so two
     * transactions locking several never wait for each other in a circle); keyed by user and
     * course. The completions come in a second statement, as in withCompletions.
     */
    async lockManyWithCompletions(keys: { userId: string; courseId: string }[]) {
      const statement = preparedOnce(db, "enrollments_lock_many", (d) =>
        d
          .select()
          .from(enrollments)
          .where(
            sql`(${enrollments.userId}, ${enrollments.courseId}) in (
              select user_id, course_id from ${jsonRecordsOf("keys")} as k(user_id text, course_id text))`,
          )
          .orderBy(asc(enrollments.id))
          .for("update")
          .prepare("enrollments_lock_many"),
      );
      const rows = await statement.execute({
        keys: recordsValue(keys.map((k) => ({ user_id: k.userId, course_id: k.courseId }))),
      });
      const locked = await withCompletionsOf(db, rows);
      return new Map(locked.map((row) => [enrollmentKey(row), row]));
    },

    /**
     * Records several module completions (each once) and sets their enrollments' progress,
     * in one statement: under load a batch of completions waits on each of its round trips
     * more than on PostgreSQL's work. Answers the enrollments as written.
     */
    async recordCompletions(
      rows: { enrollmentId: string; moduleId: string; completedAt: Date; progress: number }[],
    ): Promise<EnrollmentRow[]> {
      if (!rows.length) return [];
      // The batch as one JSON parameter, read by both parts of the statement.
      const statement = preparedOnce(db, "module_completions_record", (d) => {
        const batch = d
          .$with("batch", {})
          .as(
            sql`select * from ${jsonRecordsOf("batch")} as b(enrollment_id text, module_id text, completed_at timestamptz, progress int)`,
          );
        const inserted = d.$with("inserted_completions", {}).as(
          sql`insert into ${moduleCompletions} (enrollment_id, module_id, completed_at)
            select enrollment_id, module_id, completed_at from batch
            on conflict do nothing`,
        );
        return d
          .with(batch, inserted)
          .update(enrollments)
          .set({
            progress: sql`batch.progress`,
            updatedAt: sql`${sql.placeholder("now")}::timestamptz`,
          })
          .from(sql`batch`)
          .where(sql`${enrollments.id} = batch.enrollment_id`)
          .returning(getTableColumns(enrollments))
          .prepare("module_completions_record");
      });
      return statement.execute({
        now: new Date().toISOString(),
        batch: recordsValue(
          rows.map((r) => ({
            enrollment_id: r.enrollmentId,
            module_id: r.moduleId,
            completed_at: r.completedAt,
            progress: r.progress,
          })),
        ),
      });
    },

    /** Sets several enrollments' progress in one statement; answers the rows as written. */
    async setProgressMany(rows: { id: string; progress: number }[]): Promise<EnrollmentRow[]> {
      if (!rows.length) return [];
      const values = sql.join(
        rows.map((r) => sql`(${r.id}, ${r.progress}::int)`),
        sql`, `,
      );
      return db
        .update(enrollments)
        .set({ progress: sql`v.progress`, updatedAt: new Date() })
        .from(sql`(values ${values}) as v(id, progress)`)
        .where(sql`${enrollments.id} = v.id`)
        .returning(getTableColumns(enrollments));
    },

    async findById(id: string): Promise<EnrollmentRow | undefined> {
      const [row] = await db.select().from(enrollments).where(eq(enrollments.id, id)).limit(1);
      return row;
    },

    /** Inserts; undefined when the learner is already enrolled in the course. */
    async insert(values: typeof enrollments.$inferInsert): Promise<EnrollmentRow | undefined> {
      const [row] = await db.insert(enrollments).values(values).onConflictDoNothing().returning();
      return row;
    },

    /**
     * One multi-row insert; pairs already enrolled (before or concurrently) are skipped by
     * the unique key. Returns the rows inserted.
     */
    async insertMany(values: (typeof enrollments.$inferInsert)[]): Promise<EnrollmentRow[]> {
      const rows: EnrollmentRow[] = [];
      // A statement carries at most 65,535 parameters: an import's enrollments go in slices.
      for (let at = 0; at < values.length; at += INSERT_SLICE) {
        const slice = values.slice(at, at + INSERT_SLICE);
        rows.push(
          ...(await db.insert(enrollments).values(slice).onConflictDoNothing().returning()),
        );
      }
      return rows;
    },

    async delete(id: string): Promise<EnrollmentRow | undefined> {
      const [row] = await db.delete(enrollments).where(eq(enrollments.id, id)).returning();
      return row;
    },

    async update(
      id: string,
      values: Partial<Pick<EnrollmentRow, "progress" | "isCompleted" | "completedAt">>,
    ): Promise<EnrollmentRow> {
      const [row] = await db
        .update(enrollments)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(enrollments.id, id))
        .returning();
      return row!;
    },

    /**
     * The user's enrollments with each one's completed module ids (in completion order) in
     * one round trip: the learner dashboard's read.
     */
    async listByUserWithCompletions(userId: string) {
      const statement = preparedOnce(db, "enrollments_by_user_with_completions", (d) =>
        d
          .select({
            ...getTableColumns(enrollments),
            completed: sql<
              string[]
            >`coalesce((select array_agg(${moduleCompletions.moduleId} order by ${moduleCompletions.completedAt}, ${moduleCompletions.moduleId}) from ${moduleCompletions} where ${moduleCompletions.enrollmentId} = ${enrollments.id}), '{}')`,
          })
          .from(enrollments)
          .where(eq(enrollments.userId, sql.placeholder("userId")))
          .orderBy(desc(enrollments.createdAt), desc(enrollments.id))
          .prepare("enrollments_by_user_with_completions"),
      );
      return statement.execute({ userId });
    },

    /**
     * A page of all enrollments, newest first, after a keyset cursor; with `q`, only those
     * whose learner's name or email or whose course's title contains it (any case).
     */
    async page(options: { limit: number; after?: KeysetCursor; userIds?: string[]; q?: string }) {
      const pattern = options.q ? likePattern(options.q) : undefined;
      const searched = pattern
        ? or(
            inArray(
              enrollments.userId,
              db
                .select({ id: userAccounts.id })
                .from(userAccounts)
                .where(or(ilike(userAccounts.name, pattern), ilike(userAccounts.email, pattern))),
            ),
            inArray(
              enrollments.courseId,
              db
                .select({ id: courseSummaries.id })
                .from(courseSummaries)
                .where(ilike(courseSummaries.title, pattern)),
            ),
          )
        : undefined;
      return db
        .select({ ...getTableColumns(enrollments), cursorAt: exactTime(enrollments.createdAt) })
        .from(enrollments)
        .where(
          and(
            afterCursor(enrollments.createdAt, enrollments.id, options.after),
            options.userIds ? inArray(enrollments.userId, options.userIds) : undefined,
            searched,
          ),
        )
        .orderBy(desc(enrollments.createdAt), desc(enrollments.id))
        .limit(options.limit);
    },

    /** Completed module ids per enrollment, each list in completion order. */
    async completedModuleIds(enrollmentIds: string[]): Promise<Map<string, string[]>> {
      const result = new Map<string, string[]>();
      if (!enrollmentIds.length) return result;
      for (const row of await completionsOf(db, enrollmentIds)) {
        result.set(row.enrollmentId, [...(result.get(row.enrollmentId) ?? []), row.moduleId]);
      }
      return result;
    },

    /** Records a completion once; false when it was already recorded. */
    async insertCompletion(enrollmentId: string, moduleId: string, at: Date): Promise<boolean> {
      const rows = await db
        .insert(moduleCompletions)
        .values({ enrollmentId, moduleId, completedAt: at })
        .onConflictDoNothing()
        .returning();
      return rows.length > 0;
    },

    /**
     * A page of a course's open (not completed) enrollments after `after` in id order, each
     * with how many of `moduleIds` it completed; read without locks, to find those a course
     * edit changes.
     */
    async openPage(courseId: string, moduleIds: string[], after: string, limit: number) {
      const done = moduleIds.length
        ? sql<number>`(select count(*)::int from ${moduleCompletions}
            where ${moduleCompletions.enrollmentId} = ${enrollments.id}
            and ${inArray(moduleCompletions.moduleId, moduleIds)})`
        : sql<number>`0`;
      return db
        .select({ id: enrollments.id, progress: enrollments.progress, done })
        .from(enrollments)
        .where(
          and(
            eq(enrollments.courseId, courseId),
            sql`not ${enrollments.isCompleted}`,
            sql`${enrollments.id} > ${after}`,
          ),
        )
        .orderBy(asc(enrollments.id))
        .limit(limit);
    },

    /** Enrollments by id with their completions (as withCompletions), locked in id order. */
    async lockByIdsWithCompletions(ids: string[]) {
      const rows = await db
        .select()
        .from(enrollments)
        .where(inArray(enrollments.id, ids))
        .orderBy(asc(enrollments.id))
        .for("update");
      return withCompletionsOf(db, rows);
    },

    /** Asks for the course's enrollments to be recomputed (in the edit's transaction). */
    async requestRecompute(courseId: string): Promise<void> {
      await db
        .insert(completionRecomputes)
        .values({ courseId })
        .onConflictDoUpdate({
          target: completionRecomputes.courseId,
          set: { requestedAt: sql`now()`, requests: sql`${completionRecomputes.requests} + 1` },
        });
    },

    /** The recomputes asked for and not yet done, oldest first. */
    async pendingRecomputes() {
      return db
        .select()
        .from(completionRecomputes)
        .where(sql`${completionRecomputes.recomputed} < ${completionRecomputes.requests}`)
        .orderBy(asc(completionRecomputes.requestedAt));
    },

    /** Records a recompute done for the requests it started from (later ones stay pending). */
    async clearRecompute(courseId: string, requests: number): Promise<void> {
      await db
        .update(completionRecomputes)
        .set({ recomputed: sql`greatest(${completionRecomputes.recomputed}, ${requests})` })
        .where(eq(completionRecomputes.courseId, courseId));
    },

    /** The version of each course's rules of completion (0 before any edit changed them). */
    async rulesVersions(courseIds: string[]): Promise<Map<string, number>> {
      if (!courseIds.length) return new Map();
      const statement = preparedOnce(db, "completion_rules_versions", (d) =>
        d
          .select({
            courseId: completionRecomputes.courseId,
            requests: completionRecomputes.requests,
          })
          .from(completionRecomputes)
          .where(sql`${completionRecomputes.courseId} = any(${sql.placeholder("ids")})`)
          .prepare("completion_rules_versions"),
      );
      const rows = await statement.execute({ ids: [...new Set(courseIds)] });
      return new Map(rows.map((r) => [r.courseId, r.requests]));
    },

    /**
     * The versions of the courses' rules, each held (FOR SHARE) until the transaction ends:
     * an edit that changes a course's rules (requestRecompute) then waits for this step to
     * commit, so its recompute sees it, or this step sees the edit's version and is taken
     * again on the new rules. A course no edit has changed yet gets its row (version 0) here,
     * so there is always a row to hold.
     */
    async lockRulesVersions(courseIds: string[]): Promise<Map<string, number>> {
      const ids = [...new Set(courseIds)];
      if (!ids.length) return new Map();
      const statement = preparedOnce(db, "completion_rules_versions_held", (d) =>
        d
          .select({
            courseId: completionRecomputes.courseId,
            requests: completionRecomputes.requests,
          })
          .from(completionRecomputes)
          .where(sql`${completionRecomputes.courseId} = any(${sql.placeholder("ids")})`)
          .for("share")
          .prepare("completion_rules_versions_held"),
      );
      let rows = await statement.execute({ ids });
      if (rows.length < ids.length) {
        const held = new Set(rows.map((r) => r.courseId));
        await db
          .insert(completionRecomputes)
          .values(
            ids
              .filter((id) => !held.has(id))
              .map((courseId) => ({ courseId, requests: 0, recomputed: 0 })),
          )
          .onConflictDoNothing();
        rows = await statement.execute({ ids });
      }
      return new Map(rows.map((r) => [r.courseId, r.requests]));
    },
  };
}
