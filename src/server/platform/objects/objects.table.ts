import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  doublePrecision,
  index,
  pgTable,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { users } from "../../people/auth/auth.table";

/**
 * Every uploaded file the portal issued. Only `ready` objects (issued by us, fully
 * uploaded, real type and size checked) can be attached to a course or module.
 */
export const objects = pgTable(
  "objects",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["thumbnail", "video", "logo", "package"] }).notNull(),
    fileName: text("file_name").notNull(),
    declaredType: text("declared_type").notNull(),
    declaredSize: bigint("declared_size", { mode: "number" }).notNull(),
    contentType: text("content_type"),
    size: bigint("size", { mode: "number" }),
    /** A video's playing time in seconds, read from the file when its upload is checked. */
    durationSeconds: doublePrecision("duration_seconds"),
    status: text("status", { enum: ["pending", "uploaded", "ready", "rejected"] })
      .notNull()
      .default("pending"),
    ownerId: text("owner_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("objects_kind_check", sql`${t.kind} in ('thumbnail', 'video', 'logo', 'package')`),
    check("objects_duration_seconds_check", sql`${t.durationSeconds} > 0`),
    check("objects_status_check", sql`${t.status} in ('pending', 'uploaded', 'ready', 'rejected')`),
    index("objects_status_created_idx").on(t.status, t.createdAt),
  ],
);

export type ObjectRow = typeof objects.$inferSelect;
