import { customType, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { FieldOfStudy } from "../../../contract";
import { courses } from "../../catalogue/courses/courses.table";
import { newId } from "../../db/ids";

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/**
 * Responsible officials' signature images. A row is never changed or deleted: issued
 * certificates point at the signature they were signed with.
 */
export const signatures = pgTable("signatures", {
  id: text("id").primaryKey().$defaultFn(newId),
  contentType: text("content_type").notNull(),
  bytes: bytea("bytes").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What a course's credit-ready certificate prints beside the credit: the sponsor, the
 * delivery method, the fields of study and the responsible official with their signature.
 * No row means the defaults.
 */
export const courseCreditSettings = pgTable("course_credit_settings", {
  courseId: text("course_id")
    .primaryKey()
    .references(() => courses.id, { onDelete: "cascade" }),
  sponsorName: text("sponsor_name").notNull().default(""),
  sponsorAddress: text("sponsor_address").notNull().default(""),
  deliveryMethod: text("delivery_method").notNull().default(""),
  fieldsOfStudy: jsonb("fields_of_study").$type<FieldOfStudy[]>().notNull().default([]),
  officialName: text("official_name").notNull().default(""),
  officialTitle: text("official_title").notNull().default(""),
  signatureId: text("signature_id").references(() => signatures.id),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type CourseCreditSettingsRow = typeof courseCreditSettings.$inferSelect;
