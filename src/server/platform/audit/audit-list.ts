import {
  type AuditEvent,
  type AuditEventsPage,
  type AuditQuery,
  DATE_RANGE_REVERSED,
  describeAuditEvent,
} from "../../../contract";
import { invalidField } from "../../plugins/errors";
import type { AuditFilter } from "./audit.repository";
import type { LinkedAuditEventRow } from "./audit.table";
import { type AuditNameLookups, userNames } from "./audit-csv";

const DAY_MS = 86_400_000;

/** Also finds a person by the email an administrator types in a filter. */
export interface AuditPeopleLookups extends AuditNameLookups {
  users: AuditNameLookups["users"] & {
    findUserByEmail(email: string): Promise<{ id: string } | undefined>;
  };
}

/** An email address, as people are named in the filters; a user id has no "@". */
const isEmail = (value: string) => value.includes("@");

async function personId(
  value: string | undefined,
  lookups: AuditPeopleLookups,
): Promise<string | null | undefined> {
  if (!value) return undefined;
  if (!isEmail(value)) return value;
  return (await lookups.users.findUserByEmail(value))?.id ?? null;
}

/**
 * The query's filters as the repository reads them, or null when they can match nothing (an
 * email of nobody, two different learners). `from` and `to` are whole UTC days, inclusive;
 * a range that ends before it starts is refused.
 */
export async function auditFilterOf(
  query: AuditQuery,
  lookups: AuditPeopleLookups,
): Promise<AuditFilter | null> {
  const from = query.from ? new Date(`${query.from}T00:00:00Z`) : undefined;
  // `to` is inclusive: events before the start of the next day.
  const to = query.to ? new Date(new Date(`${query.to}T00:00:00Z`).getTime() + DAY_MS) : undefined;
  if (from && to && from >= to) {
    throw invalidField("validation.invalid_range", "to", DATE_RANGE_REVERSED);
  }
  const [actorId, learner] = await Promise.all([
    personId(query.actor, lookups),
    personId(query.learner, lookups),
  ]);
  const learnerId = query.learnerId || undefined;
  if (actorId === null || learner === null) return null;
  if (learner && learnerId && learner !== learnerId) return null;
  return {
    actorId,
    type: query.type,
    learnerId: learner ?? learnerId,
    courseId: query.courseId || undefined,
    from,
    to,
  };
}

/** The list's cursor: the seq of the last event shown, opaque to clients. */
const encodeAuditCursor = (seq: number) => Buffer.from(`seq:${seq}`).toString("base64url");

export function decodeAuditCursor(cursor: string | undefined): number | undefined {
  if (!cursor) return undefined;
  const match = /^seq:([1-9]\d{0,15})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match)
    throw invalidField(
      "validation.invalid_cursor",
      "cursor",
      "This page of the list has expired: start again from the first page.",
    );
  return Number(match[1]);
}

const recorded = (row: LinkedAuditEventRow, key: string) => {
  const value = row.details?.[key];
  return typeof value === "string" ? value : null;
};

/**
 * A page as the list shows it: each event with its sentence and the names of who acted, the
 * learner and the course (today's, or for a deleted learner or course, those the event
 * recorded). `rows` holds up to one more than `limit`, which says another page exists.
 */
export async function auditEventsPage(
  rows: LinkedAuditEventRow[],
  limit: number,
  lookups: AuditNameLookups,
): Promise<AuditEventsPage> {
  const shown = rows.slice(0, limit);
  const userIds = new Set<string>();
  const courseIds = new Set<string>();
  for (const row of shown) {
    if (row.actorId) userIds.add(row.actorId);
    if (row.learnerId) userIds.add(row.learnerId);
    if (row.courseId) courseIds.add(row.courseId);
  }
  const [users, courses] = await Promise.all([
    userIds.size ? userNames(lookups, [...userIds]) : new Map<string, never>(),
    courseIds.size ? lookups.courses.findMany([...courseIds]) : new Map<string, never>(),
  ]);
  const events: AuditEvent[] = shown.map((row) => {
    const actor = row.actorId ? users.get(row.actorId) : undefined;
    const learner = row.learnerId ? users.get(row.learnerId) : undefined;
    const course = row.courseId ? courses.get(row.courseId) : undefined;
    const details = row.details ?? {};
    return {
      seq: row.seq,
      at: row.at.toISOString(),
      type: row.type,
      summary: describeAuditEvent({ type: row.type, details }),
      actor: row.actorId
        ? {
            id: row.actorId,
            role: row.actorRole,
            name: actor?.name ?? null,
            email: actor?.email ?? null,
          }
        : null,
      learner: row.learnerId
        ? {
            id: row.learnerId,
            name: learner?.name ?? recorded(row, "learnerName"),
            email: learner?.email ?? recorded(row, "learnerEmail"),
          }
        : null,
      course: row.courseId
        ? { id: row.courseId, title: course?.title ?? recorded(row, "courseTitle") }
        : null,
      moduleId: row.moduleId,
      details,
    };
  });
  const last = shown.at(-1);
  return {
    events,
    nextCursor: rows.length > limit && last ? encodeAuditCursor(last.seq) : null,
  };
}
