import { QueryBuilder } from "drizzle-orm/pg-core";
import { courses } from "./courses.table";

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
