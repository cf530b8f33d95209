import { desc, eq, sql } from "drizzle-orm";
import { courseSummaries } from "../../catalogue";
import type { Executor } from "../../db/client";
import { enrollmentRecords } from "../../learning";
import { userAccounts } from "../../people";
import { courseStats, userStats } from "./reports.table";

/** Percent with no division by zero. */
const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);

/**
 * Read-only figures across users, courses and enrollments (as their owners expose them for
 * reports), in SQL and served by indexes (see reports.explain.test.ts), never by loading rows
 * into Node. Enrollment totals come from course_stats, which triggers keep in step with every
 * enrollment change.
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
          totalCourses: sql<number>`(select count(*)::int from ${courseSummaries})`,
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
          courseId: courseSummaries.id,
          title: courseSummaries.title,
          category: courseSummaries.category,
          enrollments: enrolled,
          completions: sql<number>`coalesce(${courseStats.completions}, 0)`,
          avgProgress: sql<number>`coalesce(round(${courseStats.progressSum}::numeric
            / nullif(${courseStats.enrollments}, 0)), 0)::int`,
          progressSum: sql<number>`coalesce(${courseStats.progressSum}, 0)::float8`,
        })
        .from(courseSummaries)
        .leftJoin(courseStats, eq(courseStats.courseId, courseSummaries.id))
        .orderBy(desc(enrolled), courseSummaries.title, courseSummaries.id);
      return rows.map((r) => ({ ...r, completionRate: rate(r.completions, r.enrollments) }));
    },

    /** The most recent completions, newest first (enrollments_completed_idx, in order). */
    async recentCompletions(limit: number) {
      const rows = await db
        .select({
          enrollmentId: enrollmentRecords.id,
          learnerName: userAccounts.name,
          learnerEmail: userAccounts.email,
          courseTitle: courseSummaries.title,
          completedAt: enrollmentRecords.completedAt,
        })
        .from(enrollmentRecords)
        .innerJoin(userAccounts, eq(userAccounts.id, enrollmentRecords.userId))
        .innerJoin(courseSummaries, eq(courseSummaries.id, enrollmentRecords.courseId))
        .where(sql`${enrollmentRecords.isCompleted}`)
        .orderBy(desc(enrollmentRecords.completedAt), desc(enrollmentRecords.id))
        .limit(limit);
      return rows.map((r) => ({ ...r, completedAt: (r.completedAt ?? new Date(0)).toISOString() }));
    },
  };
}
