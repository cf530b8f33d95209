import { sql } from "drizzle-orm";
import {
  check,
  foreignKey,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { modules } from "../courses/courses.table";

/**
 * One WebVTT caption track of a module per language (a BCP 47 tag in its conventional case).
 * The checked file's text is kept here rather than in object storage: it is small, it is
 * served from the portal's own origin (a <track> from another origin needs CORS), and it
 * goes with its module when the module or the course is deleted.
 */
export const moduleCaptions = pgTable(
  "module_captions",
  {
    courseId: text("course_id").notNull(),
    moduleId: text("module_id").notNull(),
    language: text("language").notNull(),
    label: text("label").notNull(),
    content: text("content").notNull(),
    cues: integer("cues").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.courseId, t.moduleId, t.language] }),
    foreignKey({
      name: "module_captions_module_fk",
      columns: [t.courseId, t.moduleId],
      foreignColumns: [modules.courseId, modules.id],
    }).onDelete("cascade"),
    check("module_captions_language_check", sql`char_length(${t.language}) between 2 and 35`),
    check("module_captions_label_check", sql`char_length(${t.label}) between 1 and 60`),
    check("module_captions_content_check", sql`octet_length(${t.content}) <= 1048576`),
  ],
);

/** A module's plain-text transcript; a module without one has no row. */
export const moduleTranscripts = pgTable(
  "module_transcripts",
  {
    courseId: text("course_id").notNull(),
    moduleId: text("module_id").notNull(),
    transcript: text("transcript").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.courseId, t.moduleId] }),
    foreignKey({
      name: "module_transcripts_module_fk",
      columns: [t.courseId, t.moduleId],
      foreignColumns: [modules.courseId, modules.id],
    }).onDelete("cascade"),
    check(
      "module_transcripts_length_check",
      sql`char_length(${t.transcript}) between 1 and 100000`,
    ),
  ],
);

export type CaptionRow = typeof moduleCaptions.$inferSelect;
