import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { newId } from "../../db/ids";
import { courses } from "./courses.table";

/**
 * A course's accrediting bodies, each with the provider number it gave the provider: entered
 * once, shared by every credit type the body accredits.
 */
export const courseCreditBodies = pgTable(
  "course_credit_bodies",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    courseId: text("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    providerNumber: text("provider_number").notNull().default(""),
  },
  (t) => [
    uniqueIndex("course_credit_bodies_name_idx").on(t.courseId, sql`lower(${t.name})`),
    check(
      "course_credit_bodies_text_check",
      sql`char_length(${t.name}) between 1 and 200 and char_length(${t.providerNumber}) <= 100`,
    ),
  ],
);

/** The credit types a course offers, in order (migration 0019). */
export const courseCreditTypes = pgTable(
  "course_credit_types",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    courseId: text("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    /** As the body writes it, in the plural: "contact hours", "CPE credits". */
    name: text("name").notNull(),
    amount: numeric("amount", { precision: 6, scale: 2, mode: "number" }).notNull(),
    bodyId: text("body_id").references(() => courseCreditBodies.id, { onDelete: "restrict" }),
    accreditationStatement: text("accreditation_statement").notNull().default(""),
    designationStatement: text("designation_statement").notNull().default(""),
    claimStep: numeric("claim_step", { precision: 6, scale: 2, mode: "number" }),
    licenceRequired: boolean("licence_required").notNull().default(false),
  },
  (t) => [
    index("course_credit_types_course_idx").on(t.courseId, t.position),
    index("course_credit_types_body_idx").on(t.bodyId),
    check("course_credit_types_amount_check", sql`${t.amount} > 0 and ${t.amount} <= 1000`),
    check("course_credit_types_step_check", sql`${t.claimStep} > 0`),
    check("course_credit_types_name_check", sql`char_length(${t.name}) between 1 and 100`),
  ],
);

export type CourseCreditTypeRow = typeof courseCreditTypes.$inferSelect;
export type CourseCreditBodyRow = typeof courseCreditBodies.$inferSelect;
