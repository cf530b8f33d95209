import type { Actor, AuditEventInput } from "../../platform";
import { fieldChanges } from "../../platform";
import type { CourseRow, ModuleRow } from "./courses.table";

/** The course's details (course.updated); every other column but bookkeeping is a setting. */
const DETAIL_FIELDS = new Set(["title", "description", "category", "duration", "thumbnail"]);
const BOOKKEEPING_FIELDS = new Set(["id", "createdBy", "createdAt", "updatedAt", "isPublished"]);
/** Long text and object paths: the trail names them as changed, without their values. */
const NAMES_ONLY = ["description", "thumbnail", "videoUrl", "packageId"];

/**
 * The audit events of an edit of the course row: its details (course.updated) and its
 * completion and credit settings (course.settings_updated), each only when something changed.
 */
export function courseEditEvents(
  before: CourseRow,
  after: CourseRow,
  actor: Actor,
): AuditEventInput[] {
  const fields = Object.keys(after) as (keyof CourseRow & string)[];
  const details = fieldChanges(
    before,
    after,
    fields.filter((f) => DETAIL_FIELDS.has(f)),
    { namesOnly: NAMES_ONLY },
  );
  const settings = fieldChanges(
    before,
    after,
    fields.filter((f) => !DETAIL_FIELDS.has(f) && !BOOKKEEPING_FIELDS.has(f)),
  );
  const event = (type: "course.updated" | "course.settings_updated", changes: typeof details) => ({
    type,
    actor,
    courseId: after.id,
    details: { courseTitle: after.title, changes },
  });
  return [
    ...(details.length ? [event("course.updated", details)] : []),
    ...(settings.length ? [event("course.settings_updated", settings)] : []),
  ];
}

/** A module's fields an edit may change (module.updated). */
const MODULE_FIELDS = [
  "title",
  "description",
  "duration",
  "kind",
  "videoUrl",
  "packageId",
] as const;

/** What an edit changed of a module, for its module.updated event. */
export const moduleChanges = (before: ModuleRow, after: ModuleRow) =>
  fieldChanges(before, after, MODULE_FIELDS, { namesOnly: NAMES_ONLY });

/** An event about one course, naming it as it was titled then. */
export const courseEvent = (
  type: AuditEventInput["type"],
  actor: Actor,
  course: CourseRow,
  details: AuditEventInput["details"] = {},
  moduleId?: string,
): AuditEventInput => ({
  type,
  actor,
  courseId: course.id,
  moduleId: moduleId ?? null,
  details: { courseTitle: course.title, ...details },
});
