import {
  type AdminStats,
  CATEGORIES,
  type CourseReport,
  REPORT_RECENT_COMPLETIONS,
  type Reports,
  reportsSchema,
} from "../../../contract";
import type { Database } from "../../db/client";
import { coalesce } from "./coalesce";
import { createReportsRepository } from "./reports.repository";

const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);

/**
 * Groups the per-course figures by category. The average is over the category's
 * enrollments, from exact progress sums: averaging the courses' rounded averages drifts.
 */
function byCategory(courseReports: (CourseReport & { progressSum: number })[]) {
  return CATEGORIES.map((category) => {
    const mine = courseReports.filter((c) => c.category === category);
    const enrollments = mine.reduce((s, c) => s + c.enrollments, 0);
    const completions = mine.reduce((s, c) => s + c.completions, 0);
    const progressSum = mine.reduce((s, c) => s + c.progressSum, 0);
    return {
      category,
      courses: mine.length,
      enrollments,
      completions,
      completionRate: rate(completions, enrollments),
      avgProgress: enrollments ? Math.round(progressSum / enrollments) : 0,
    };
  });
}

/** Dashboard stats and the Reports page (SPEC section 2), and their CSV export. */
export function createReportsService({ db }: { db: Database }) {
  const repo = createReportsRepository(db);

  async function stats(): Promise<AdminStats> {
    const o = await repo.overall();
    return {
      totalCourses: o.totalCourses,
      activeLearners: o.activeLearners,
      completions: o.completions,
      avgProgress: o.avgProgress,
      totalLearners: o.totalLearners,
      totalEnrollments: o.totalEnrollments,
    };
  }

  async function reports(): Promise<Reports> {
    const [o, courseReports, recent] = await Promise.all([
      repo.overall(),
      repo.perCourse(),
      repo.recentCompletions(REPORT_RECENT_COMPLETIONS),
    ]);
    return {
      summary: {
        totalLearners: o.totalLearners,
        totalEnrollments: o.totalEnrollments,
        completions: o.completions,
        completionRate: o.completionRate,
        avgProgress: o.avgProgress,
      },
      courses: courseReports.map(({ progressSum: _sum, ...course }) => course),
      categories: byCategory(courseReports),
      recentCompletions: recent,
    };
  }

  // Every administrator sees the same figures: simultaneous requests share one read and
  // one serialization (coalesce.ts explains why no answer is ever staler than its request).
  const sharedStats = coalesce(stats);
  const sharedReportsJson = coalesce(async () =>
    // The response schema's own encoding, as the route serializer would do for each reply.
    JSON.stringify(reportsSchema.encode(await reports())),
  );

  return {
    stats: sharedStats,
    reports,
    /** GET /api/admin/reports, serialized once for every request waiting on it. */
    reportsJson: sharedReportsJson,
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
