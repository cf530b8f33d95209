import { sql } from "drizzle-orm";
import { check, index, integer, numeric, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { newId } from "../../db/ids";
import { courses } from "./courses.table";
import { creditCatalogue } from "./credit-catalogue.table";

/**
 * The credit types a course offers, in order: each a type of the organisation's credit
 * catalogue, with the course's own amount, claim step and designation (migration 0030).
 */
export const courseCreditTypes = pgTable(
  "course_credit_types",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    courseId: text("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    catalogueTypeId: text("catalogue_type_id")
      .notNull()
      .references(() => creditCatalogue.id, { onDelete: "restrict" }),
    amount: numeric("amount", { precision: 6, scale: 2, mode: "number" }).notNull(),
    designationStatement: text("designation_statement").notNull().default(""),
    claimStep: numeric("claim_step", { precision: 6, scale: 2, mode: "number" }),
  },
  (t) => [
    index("course_credit_types_course_idx").on(t.courseId, t.position),
    uniqueIndex("course_credit_types_catalogue_idx").on(t.courseId, t.catalogueTypeId),
    check("course_credit_types_amount_check", sql`${t.amount} > 0 and ${t.amount} <= 1000`),
    check("course_credit_types_step_check", sql`${t.claimStep} > 0`),
  ],
);

export type CourseCreditTypeRow = typeof courseCreditTypes.$inferSelect;
