import { QueryBuilder } from "drizzle-orm/pg-core";
import { enrollments, moduleCompletions } from "./enrollments.table";

/**
 * Every enrollment as other features' reports, lists, reminders and certificates read it: who
 * is enrolled in which course, how far they are and when. A subquery they join in their own
 * statement; PostgreSQL reads it as the enrollments table itself, with the same indexes.
 */
export const enrollmentRecords = new QueryBuilder()
  .select({
    id: enrollments.id,
    userId: enrollments.userId,
    courseId: enrollments.courseId,
    progress: enrollments.progress,
    isCompleted: enrollments.isCompleted,
    completedAt: enrollments.completedAt,
    createdAt: enrollments.createdAt,
    /** When the learner last progressed. */
    updatedAt: enrollments.updatedAt,
  })
  .from(enrollments)
  .as("enrollment_records");

/**
 * Each module an enrollment completed, and when: the record of credit that lists of learners
 * join to show a module's completion beside other measures of it. Read as the table itself.
 */
export const moduleCompletionRecords = new QueryBuilder()
  .select({
    enrollmentId: moduleCompletions.enrollmentId,
    moduleId: moduleCompletions.moduleId,
    completedAt: moduleCompletions.completedAt,
  })
  .from(moduleCompletions)
  .as("module_completion_records");
