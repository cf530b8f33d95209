import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { Regulator } from "../../../contract";
import { newId } from "../../db/ids";

/**
 * The accrediting bodies that accredit the provider, each with the provider number it gave:
 * entered once for the organisation, shared by every credit type the body accredits.
 */
export const creditBodies = pgTable(
  "credit_bodies",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    name: text("name").notNull(),
    providerNumber: text("provider_number").notNull().default(""),
    /** The minutes of learning in one of its credit hours: NASBA's CPE credit is 50. */
    minutesPerHour: integer("minutes_per_hour").$type<50 | 60>().notNull().default(60),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("credit_bodies_name_idx").on(sql`lower(${t.name})`),
    check("credit_bodies_hour_check", sql`${t.minutesPerHour} in (50, 60)`),
  ],
);

/**
 * The credit types the provider offers, each once. A course offers a type with its own
 * amount; issued certificates keep what they printed, so editing a type changes what courses
 * offer from now on, never what a learner already holds.
 */
export const creditCatalogue = pgTable(
  "credit_catalogue",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    bodyId: text("body_id").references(() => creditBodies.id, { onDelete: "restrict" }),
    name: text("name").notNull(),
    singularName: text("singular_name").notNull(),
    accreditationStatement: text("accreditation_statement").notNull().default(""),
    designationStatement: text("designation_statement").notNull().default(""),
    profession: text("profession").notNull().default(""),
    regulators: jsonb("regulators").$type<Regulator[]>().notNull().default([]),
    fieldsOfStudyRequired: boolean("fields_of_study_required").notNull().default(false),
    licenceRequired: boolean("licence_required").notNull().default(false),
    /** Made from the courses' own types when the catalogue began, until confirmed or merged. */
    needsReview: boolean("needs_review").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("credit_catalogue_name_idx").on(
      sql`coalesce(${t.bodyId}, '')`,
      sql`lower(${t.name})`,
    ),
    index("credit_catalogue_body_idx").on(t.bodyId),
  ],
);

export type CreditBodyRow = typeof creditBodies.$inferSelect;
export type CreditCatalogueRow = typeof creditCatalogue.$inferSelect;

/**
 * Each catalogue type merged into another, kept after the merged type is gone: the credit a
 * learner already holds under it adds up under the type it became, without rewriting the
 * certificate that names it.
 */
export const creditCatalogueMerges = pgTable("credit_catalogue_merges", {
  fromId: text("from_id").primaryKey(),
  intoId: text("into_id").notNull(),
  mergedAt: timestamp("merged_at", { withTimezone: true }).notNull().defaultNow(),
});
