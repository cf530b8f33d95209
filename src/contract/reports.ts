import { z } from "zod";
import { categorySchema } from "./entities";

export const reportSummarySchema = z.object({
  totalLearners: z.number().int(),
  totalEnrollments: z.number().int(),
  completions: z.number().int(),
  /** Percent of enrollments completed, 0 when there are none. */
  completionRate: z.number().int(),
  avgProgress: z.number().int(),
});

export const courseReportSchema = z.object({
  courseId: z.string(),
  title: z.string(),
  category: categorySchema,
  enrollments: z.number().int(),
  completions: z.number().int(),
  completionRate: z.number().int(),
  avgProgress: z.number().int(),
});

export const categoryReportSchema = z.object({
  category: categorySchema,
  courses: z.number().int(),
  enrollments: z.number().int(),
  completions: z.number().int(),
  completionRate: z.number().int(),
  avgProgress: z.number().int(),
});

export const recentCompletionSchema = z.object({
  enrollmentId: z.string(),
  learnerName: z.string(),
  learnerEmail: z.string(),
  courseTitle: z.string(),
  completedAt: z.string(),
});

export const reportsSchema = z.object({
  summary: reportSummarySchema,
  courses: z.array(courseReportSchema),
  categories: z.array(categoryReportSchema),
  recentCompletions: z.array(recentCompletionSchema),
});
export type Reports = z.infer<typeof reportsSchema>;
export type CourseReport = z.infer<typeof courseReportSchema>;
