import { QueryBuilder } from "drizzle-orm/pg-core";
import { courseCreditTypes } from "./course-credit.table";

/**
 * Which course offers each credit type, and which catalogue type it is: how regulator reports
 * find a type's course. A subquery other features join in their own statement.
 */
export const creditTypeCourses = new QueryBuilder()
  .select({
    creditTypeId: courseCreditTypes.id,
    courseId: courseCreditTypes.courseId,
    catalogueTypeId: courseCreditTypes.catalogueTypeId,
  })
  .from(courseCreditTypes)
  .as("credit_type_courses");
