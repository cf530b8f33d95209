import { csvRow } from "../../lib/csv";
import type { AuditEventRow } from "./audit.table";
import { canonicalJson } from "./audit-hash";

/**
 * The hashed columns first, in the order an auditor's scripts already read them; the
 * names after them are read at export time, for people reading the file.
 */
const AUDIT_CSV_HEADER = [
  "seq",
  "at",
  "type",
  "actor_id",
  "actor_role",
  "learner_id",
  "course_id",
  "module_id",
  "details",
  "prev_hash",
  "hash",
  "actor_name",
  "actor_email",
  "learner_name",
  "learner_email",
  "course_title",
];

const line = csvRow;

/**
 * An event's details as hashed, with each `;` written as the JSON escape `\u003b`: the CSV
 * writer makes a formula after a `;` inert by adding a character, which would change what
 * was hashed, while the escape reads back as the same JSON. `canonicalJson(JSON.parse(cell))`
 * gives the exact text the hash covers.
 */
const detailsCell = (details: AuditEventRow["details"]) =>
  canonicalJson(details ?? {}).replaceAll(";", "\\u003b");

/** Who the ids of an event are, asked of the features that own users and courses. */
export interface AuditNameLookups {
  /** The people context: accounts by id. */
  users: { findUsers(ids: string[]): Promise<{ id: string; name: string; email: string }[]> };
  /** The catalogue: courses by id. */
  courses: { findMany(ids: string[]): Promise<Map<string, { title: string }>> };
}

/** The names of the people an audit page or file shows, by id. */
export async function userNames(lookups: AuditNameLookups, ids: string[]) {
  return new Map((await lookups.users.findUsers(ids)).map((u) => [u.id, u]));
}

/** Rows resolved per batch: one users and one courses query for this many events. */
const NAME_BATCH = 500;

async function* batches<T>(items: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** A string kept in an event's details (the names recorded when the event happened). */
function detail(e: AuditEventRow, key: string): string | undefined {
  const value = e.details?.[key];
  return typeof value === "string" ? value : undefined;
}

/**
 * The export, streamed row by row. It carries prev_hash and hash, and details in the
 * canonical form that was hashed, so an auditor can recompute each link from the file.
 * Names and emails are today's; for a deleted learner or course, the ones the event
 * recorded (learner.deleted, certificate.issued) stand in.
 */
export async function* auditCsvLines(
  events: AsyncIterable<AuditEventRow>,
  lookups: AuditNameLookups,
): AsyncGenerator<string> {
  yield line(AUDIT_CSV_HEADER);
  const users = new Map<string, { name: string; email: string } | null>();
  const courses = new Map<string, { title: string } | null>();
  for await (const batch of batches(events, NAME_BATCH)) {
    const userIds = new Set<string>();
    const courseIds = new Set<string>();
    for (const e of batch) {
      for (const id of [e.actorId, e.learnerId]) if (id && !users.has(id)) userIds.add(id);
      if (e.courseId && !courses.has(e.courseId)) courseIds.add(e.courseId);
    }
    const [foundUsers, foundCourses] = await Promise.all([
      userIds.size ? userNames(lookups, [...userIds]) : new Map(),
      courseIds.size ? lookups.courses.findMany([...courseIds]) : new Map(),
    ]);
    for (const id of userIds) users.set(id, foundUsers.get(id) ?? null);
    for (const id of courseIds) courses.set(id, foundCourses.get(id) ?? null);

    for (const e of batch) {
      const actor = e.actorId ? users.get(e.actorId) : undefined;
      const learner = e.learnerId ? users.get(e.learnerId) : undefined;
      const course = e.courseId ? courses.get(e.courseId) : undefined;
      yield line([
        e.seq,
        e.at.toISOString(),
        e.type,
        e.actorId,
        e.actorRole,
        e.learnerId,
        e.courseId,
        e.moduleId,
        detailsCell(e.details),
        e.prevHash,
        e.hash,
        actor?.name,
        actor?.email,
        e.learnerId ? (learner?.name ?? detail(e, "learnerName")) : undefined,
        e.learnerId ? (learner?.email ?? detail(e, "learnerEmail")) : undefined,
        e.courseId ? (course?.title ?? detail(e, "courseTitle")) : undefined,
      ]);
    }
  }
}
