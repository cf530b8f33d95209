import { desc, eq, sql } from "drizzle-orm";
import { courses } from "../../catalogue";
import type { Executor } from "../../db/client";
import { enrollments } from "../../learning";
import { users } from "../../people";
import { courseStats, userStats } from "./reports.table";

/** Percent with no division by zero. */
const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);

/**
 * Read-only figures across users, courses and enrollments, in SQL and served by indexes
 * (see reports.explain.test.ts), never by loading rows into Node. Enrollment totals come
 * from course_stats, which triggers keep in step with every enrollment change.
 */
export function createReportsRepository(db: Executor) {
  return {
    /**
     * Whole-portal figures: ~1,000 course_stats rows and the user_stats counters:
     * counting 100,000 learners twice per request made the dashboard miss its budget).
     */
    async overall() {
      const [row] = await db
        .select({
          totalCourses: sql<number>`(select count(*)::int from ${courses})`,
          totalLearners: sql<number>`(select coalesce(sum(${userStats.users}), 0)::int from ${userStats} where ${userStats.role} = 'learner')`,
          activeLearners: sql<number>`(select coalesce(sum(${userStats.users}), 0)::int from ${userStats} where ${userStats.role} = 'learner' and ${userStats.status} = 'active')`,
          totalEnrollments: sql<number>`coalesce(sum(${courseStats.enrollments}), 0)::int`,
          completions: sql<number>`coalesce(sum(${courseStats.completions}), 0)::int`,
          // numeric division: round() of a double would round half to even.
          avgProgress: sql<number>`coalesce(round(sum(${courseStats.progressSum})::numeric
            / nullif(sum(${courseStats.enrollments}), 0)), 0)::int`,
        })
        .from(courseStats);
      return { ...row!, completionRate: rate(row!.completions, row!.totalEnrollments) };
    },

    /**
     * Every course with its enrollment figures, most enrolled first. `progressSum` lets
     * callers average over several courses exactly (an average of rounded averages drifts).
     */
    async perCourse() {
      const enrolled = sql<number>`coalesce(${courseStats.enrollments}, 0)`;
      const rows = await db
        .select({
          courseId: courses.id,
          title: courses.title,
          category: courses.category,
          enrollments: enrolled,
          completions: sql<number>`coalesce(${courseStats.completions}, 0)`,
          avgProgress: sql<number>`coalesce(round(${courseStats.progressSum}::numeric
            / nullif(${courseStats.enrollments}, 0)), 0)::int`,
          progressSum: sql<number>`coalesce(${courseStats.progressSum}, 0)::float8`,
        })
        .from(courses)
        .leftJoin(courseStats, eq(courseStats.courseId, courses.id))
        .orderBy(desc(enrolled), courses.title, courses.id);
      return rows.map((r) => ({ ...r, completionRate: rate(r.completions, r.enrollments) }));
    },

    /** The most recent completions, newest first (enrollments_completed_idx, in order). */
    async recentCompletions(limit: number) {
      const rows = await db
        .select({
          enrollmentId: enrollments.id,
          learnerName: users.name,
          learnerEmail: users.email,
          courseTitle: courses.title,
          completedAt: enrollments.completedAt,
        })
        .from(enrollments)
        .innerJoin(users, eq(users.id, enrollments.userId))
        .innerJoin(courses, eq(courses.id, enrollments.courseId))
        .where(sql`${enrollments.isCompleted}`)
        .orderBy(desc(enrollments.completedAt), desc(enrollments.id))
        .limit(limit);
      return rows.map((r) => ({ ...r, completedAt: (r.completedAt ?? new Date(0)).toISOString() }));
    },
  };
}
