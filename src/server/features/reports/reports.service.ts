import {
  type AdminStats,
  CATEGORIES,
  type CourseReport,
  REPORT_RECENT_COMPLETIONS,
  type Reports,
} from "../../../contract";
import type { Database } from "../../db/client";
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

  return {
    async stats(): Promise<AdminStats> {
      const o = await repo.overall();
      return {
        totalCourses: o.totalCourses,
        activeLearners: o.activeLearners,
        completions: o.completions,
        avgProgress: o.avgProgress,
        totalLearners: o.totalLearners,
        totalEnrollments: o.totalEnrollments,
      };
    },

    async reports(): Promise<Reports> {
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
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
