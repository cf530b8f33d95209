import { and, desc, eq, getTableColumns, ilike, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { afterCursor, exactTime, type KeysetCursor } from "../../db/cursor";
import { preparedOnce } from "../../db/prepared";
import { users } from "../auth/auth.table";
import { courses } from "../courses/courses.table";
import { enrollments } from "../enrollments/enrollments.table";

/** Escapes LIKE wildcards so a search for "50%" finds "50%", not everything. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The Learners page read model. It joins users, enrollments and courses in SQL on
 * purpose: the figures for a page of learners must come from one aggregate query,
 * never from loading every enrollment into Node (issue 4, 100,000 learners).
 */
export function createLearnersRepository(db: Executor) {
  return {
    async page(options: { limit: number; after?: KeysetCursor; q?: string }) {
      const { after, q } = options;
      return db
        .select({ ...getTableColumns(users), cursorAt: exactTime(users.createdAt) })
        .from(users)
        .where(
          and(
            eq(users.role, "learner"),
            q
              ? or(ilike(users.name, likePattern(q)), ilike(users.email, likePattern(q)))
              : undefined,
            afterCursor(users.createdAt, users.id, after),
          ),
        )
        .orderBy(desc(users.createdAt), desc(users.id))
        .limit(options.limit);
    },

    /** Enrolled courses with progress for a set of learners (one page). */
    async enrollmentsOf(userIds: string[]) {
      if (!userIds.length) return [];
      // A prepared statement (db/prepared.ts, issue 7); `= any($1)` serves any page size.
      const statement = preparedOnce(db, "learners_enrollments_of", (d) =>
        d
          .select({
            enrollmentId: enrollments.id,
            userId: enrollments.userId,
            courseId: enrollments.courseId,
            title: courses.title,
            progress: enrollments.progress,
            isCompleted: enrollments.isCompleted,
          })
          .from(enrollments)
          .innerJoin(courses, eq(courses.id, enrollments.courseId))
          .where(sql`${enrollments.userId} = any(${sql.placeholder("ids")})`)
          .orderBy(enrollments.userId, enrollments.createdAt)
          .prepare("learners_enrollments_of"),
      );
      return statement.execute({ ids: userIds });
    },
  };
}
