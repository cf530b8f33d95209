import { sql } from "drizzle-orm";
import { check, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { DateFormat } from "../../../contract";
import { objects } from "../objects/objects.table";

/**
 * The portal's one organisation profile (id 1): the issuer of its certificates, transcripts
 * and emails. No row means the portal issues as its product name.
 */
export const organisationProfile = pgTable(
  "organisation_profile",
  {
    id: integer("id").primaryKey().default(1),
    name: text("name").notNull().default(""),
    /** A ready upload of kind 'logo' (objects). */
    logoId: text("logo_id").references(() => objects.id, { onDelete: "restrict" }),
    address: text("address").notNull().default(""),
    contactEmail: text("contact_email").notNull().default(""),
    dateFormat: text("date_format").$type<DateFormat>().notNull().default("month-day-year"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("organisation_profile_single_check", sql`${t.id} = 1`),
    check(
      "organisation_profile_date_format_check",
      sql`${t.dateFormat} in ('month-day-year', 'day-month-year', 'iso')`,
    ),
  ],
);

export type OrganisationProfileRow = typeof organisationProfile.$inferSelect;
