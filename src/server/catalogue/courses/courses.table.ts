import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { newId } from "../../db/ids";
import { users } from "../../people/auth/auth.table";
import { contentPackages } from "../packages/packages.table";

export const courses = pgTable(
  "courses",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    title: text("title").notNull(),
    description: text("description").notNull(),
    category: text("category", { enum: ["Development", "Database", "Mobile", "Design"] }).notNull(),
    /** Whole hours (SPEC section 9). */
    duration: integer("duration").notNull(),
    thumbnail: text("thumbnail"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    isPublished: boolean("is_published").notNull().default(false),
    /** 'manual' is the spec's behaviour; 'verified' gates completion on watching. */
    completionPolicy: text("completion_policy", { enum: ["manual", "verified"] })
      .notNull()
      .default("manual"),
    minWatchPercent: integer("min_watch_percent").notNull().default(90),
    minSeatSeconds: integer("min_seat_seconds"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("courses_duration_check", sql`${t.duration} >= 1`),
    check(
      "courses_category_check",
      sql`${t.category} in ('Development', 'Database', 'Mobile', 'Design')`,
    ),
    check("courses_completion_policy_check", sql`${t.completionPolicy} in ('manual', 'verified')`),
    check("courses_min_watch_percent_check", sql`${t.minWatchPercent} between 1 and 100`),
    check("courses_min_seat_seconds_check", sql`${t.minSeatSeconds} >= 0`),
    // NULLS FIRST is what ORDER BY … DESC means; DESC NULLS LAST would not serve the list.
    index("courses_created_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("courses_thumbnail_idx").on(t.thumbnail),
  ],
);

/** Modules belong to one course; their client-made ids are unique within it. */
export const modules = pgTable(
  "modules",
  {
    courseId: text("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    position: integer("position").notNull(),
    title: text("title").notNull(),
    description: text("description"),
    /** Whole minutes (SPEC section 9). */
    duration: integer("duration").notNull(),
    /** What the module plays: the spec's video, or a SCORM or cmi5 package. */
    kind: text("kind", { enum: ["video", "scorm", "cmi5"] })
      .notNull()
      .default("video"),
    /** A video module's video (an object path); null for a package module. */
    videoUrl: text("video_url"),
    /** A package module's package, kept while a module plays it. */
    packageId: text("package_id").references(() => contentPackages.id, {
      onDelete: "restrict",
    }),
    /** The video's playing time in seconds, read from its file on upload (null if unknown). */
    videoSeconds: doublePrecision("video_seconds"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.courseId, t.id] }),
    check("modules_duration_check", sql`${t.duration} >= 1`),
    check("modules_video_seconds_check", sql`${t.videoSeconds} > 0`),
    check("modules_kind_check", sql`${t.kind} in ('video', 'scorm', 'cmi5')`),
    // A video module has its video and no package; a package module the reverse.
    check(
      "modules_content_check",
      sql`(${t.kind} = 'video' and ${t.videoUrl} is not null and ${t.packageId} is null) or (${t.kind} <> 'video' and ${t.videoUrl} is null and ${t.packageId} is not null)`,
    ),
    index("modules_course_position_idx").on(t.courseId, t.position),
    index("modules_video_idx").on(t.videoUrl),
    index("modules_package_idx").on(t.packageId),
  ],
);

/**
 * The ids of the modules a course had and lost. A learner's completion of a module is kept
 * when the module goes (the credit was earned), so an id is never given to a new module of
 * the course: the new content would count as done by whoever finished the old.
 */
export const retiredModules = pgTable(
  "retired_modules",
  {
    courseId: text("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.courseId, t.id] })],
);

export type CourseRow = typeof courses.$inferSelect;
export type ModuleRow = typeof modules.$inferSelect;
