import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { newId } from "../../db/ids";
import type { Cmi5Au, Cmi5Description } from "./cmi5-course-structure";
import type { ScormDescription, ScormItem } from "./scorm-manifest";

/**
 * What the run time needs of a package beyond its items: a SCORM organization's outline
 * and settings, a cmi5 course's id, blocks and objectives. (The whole manifest stays among
 * the package's files.)
 */
export type PackageStructure =
  | Omit<ScormDescription, "standard" | "version" | "title" | "items">
  | Omit<Cmi5Description, "standard" | "version" | "title" | "items">;

/**
 * Every package unpacked into the object store (under `packages/<id>/`), checked before any
 * module plays it. A row is written before its files, as `unpacking`, and becomes `ready`
 * once every file is stored: a package whose unpacking stopped halfway is never played,
 * and its row says which prefix to remove.
 */
export const contentPackages = pgTable(
  "content_packages",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    /** The uploaded `.zip` (an object path) it was unpacked from. */
    sourcePath: text("source_path").notNull(),
    status: text("status", { enum: ["unpacking", "ready"] })
      .notNull()
      .default("unpacking"),
    standard: text("standard", { enum: ["scorm12", "scorm2004", "cmi5"] }).notNull(),
    /** The version as the manifest states it ("1.2", "2004 4th Edition", "cmi5"). */
    version: text("version").notNull(),
    title: text("title").notNull(),
    /**
     * What it launches, in order, with what each needs to run: SCORM items (launch file and
     * query, parameters, mastery score, time limits, completion threshold, primary
     * objective), or cmi5 AUs (launch, moveOn, masteryScore, launchMethod, parameters).
     */
    items: jsonb("items").$type<ScormItem[] | Cmi5Au[]>().notNull(),
    structure: jsonb("structure").$type<PackageStructure>().notNull(),
    fileCount: integer("file_count").notNull(),
    expandedBytes: bigint("expanded_bytes", { mode: "number" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("content_packages_status_check", sql`${t.status} in ('unpacking', 'ready')`),
    check(
      "content_packages_standard_check",
      sql`${t.standard} in ('scorm12', 'scorm2004', 'cmi5')`,
    ),
    check("content_packages_file_count_check", sql`${t.fileCount} >= 0`),
    check("content_packages_expanded_bytes_check", sql`${t.expandedBytes} >= 0`),
    index("content_packages_source_idx").on(t.sourcePath),
    index("content_packages_status_created_idx").on(t.status, t.createdAt),
  ],
);

export type PackageRow = typeof contentPackages.$inferSelect;
