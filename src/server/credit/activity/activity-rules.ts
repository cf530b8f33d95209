import { type ActivityBody, DEFAULT_ACTIVITY } from "../../../contract";
import { courseExpired, enrollmentExpired } from "./activity.errors";
import type { ActivitySettings } from "./activity.read-model";

const DAY_MS = 86_400_000;

/** The fields of the activity page the activity keeps itself (the others' are their own). */
export type ActivityPageFields = Omit<
  ActivityBody,
  "evaluationRequired" | "attestationRequired" | "attestationText"
>;

/** The activity's own fields of a stored row, or the defaults of a plain course. */
export function activityFields(row: ActivitySettings): ActivityPageFields {
  const {
    evaluationRequired: _,
    attestationRequired: __,
    attestationText: ___,
    ...defaults
  } = DEFAULT_ACTIVITY;
  if (!row) return defaults;
  return {
    objectives: row.objectives,
    faculty: row.faculty,
    disclosureStatement: row.disclosureStatement,
    releaseDate: row.releaseDate,
    reviewDate: row.reviewDate,
    expirationDate: row.expirationDate,
    enrollmentValidDays: row.enrollmentValidDays,
    acknowledgementRequired: row.acknowledgementRequired,
    retentionYears: row.retentionYears,
  };
}

/** After the expiration date (a whole UTC day) nobody starts the course or earns its credit. */
export const isCourseExpired = (row: ActivitySettings, now: Date) =>
  Boolean(row?.expirationDate && now.toISOString().slice(0, 10) > row.expirationDate);

/** The end of the enrollment's validity window, when the course has one. */
export function enrollmentEndsAt(row: ActivitySettings, enrolledAt: Date) {
  return row?.enrollmentValidDays
    ? new Date(enrolledAt.getTime() + row.enrollmentValidDays * DAY_MS)
    : null;
}

/**
 * The first moment no step may be taken on the enrollment any more (assertOpen's rule as a
 * date): the day after the course's expiration date, or the end of the enrollment's
 * validity window, whichever comes first; null when neither is set.
 */
export function validUntil(row: ActivitySettings, enrolledAt: Date): Date | null {
  const courseEnd = row?.expirationDate
    ? new Date(Date.parse(`${row.expirationDate}T00:00:00Z`) + DAY_MS)
    : null;
  const enrollmentEnd = enrollmentEndsAt(row, enrolledAt);
  if (!courseEnd || !enrollmentEnd) return courseEnd ?? enrollmentEnd;
  return new Date(Math.min(courseEnd.getTime(), enrollmentEnd.getTime()));
}

/** Refuses any step on an expired course, or after the enrollment's validity window. */
export function assertOpen(row: ActivitySettings, enrollment: { createdAt: Date }, now: Date) {
  if (isCourseExpired(row, now)) throw courseExpired();
  const end = enrollmentEndsAt(row, enrollment.createdAt);
  if (end && now >= end) throw enrollmentExpired();
}
