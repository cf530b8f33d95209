import { QueryBuilder } from "drizzle-orm/pg-core";
import { courses, modules } from "./courses.table";

const builder = new QueryBuilder();

/**
 * Every course as other features' reports, lists and certificates name it. A subquery they
 * join in their own statement; PostgreSQL reads it as the courses table itself.
 */
export const courseSummaries = builder
  .select({
    id: courses.id,
    title: courses.title,
    category: courses.category,
    duration: courses.duration,
    isPublished: courses.isPublished,
  })
  .from(courses)
  .as("course_summaries");

/**
 * The package each package module plays now, for features that must tell an attempt at it
 * from one at a package the module played before. A subquery they join in their own
 * statement.
 */
export const modulePackages = builder
  .select({
    courseId: modules.courseId,
    moduleId: modules.id,
    packageId: modules.packageId,
  })
  .from(modules)
  .as("module_packages");
