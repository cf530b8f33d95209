import {
  type ActivityBody,
  type CreditSettings,
  DEFAULT_ACTIVITY,
  DEFAULT_CREDIT_SETTINGS,
  DEFAULT_EVALUATION_ITEMS,
  type EvaluationItem,
  type Licence,
} from "../../../contract";
import { courseExpired, enrollmentExpired } from "./credit.errors";
import type { CourseActivityRow } from "./credit.table";

const DAY_MS = 86_400_000;

/** The activity fields of a stored row, or the defaults of a plain course. */
export function activityFields(row: CourseActivityRow | undefined): ActivityBody {
  if (!row) return DEFAULT_ACTIVITY;
  return {
    objectives: row.objectives,
    faculty: row.faculty,
    disclosureStatement: row.disclosureStatement,
    accreditationStatement: row.accreditationStatement,
    releaseDate: row.releaseDate,
    reviewDate: row.reviewDate,
    expirationDate: row.expirationDate,
    enrollmentValidDays: row.enrollmentValidDays,
    acknowledgementRequired: row.acknowledgementRequired,
    evaluationRequired: row.evaluationRequired,
    attestationRequired: row.attestationRequired,
    attestationText: row.attestationText,
    partialCreditStep: row.partialCreditStep,
    retentionYears: row.retentionYears,
  };
}

export function creditSettingsOf(row: CourseActivityRow | undefined): CreditSettings {
  if (!row) return DEFAULT_CREDIT_SETTINGS;
  return {
    sponsorName: row.sponsorName,
    sponsorAddress: row.sponsorAddress,
    deliveryMethod: row.deliveryMethod,
    fieldsOfStudy: row.fieldsOfStudy,
    registryNumber: row.registryNumber,
    officialName: row.officialName,
    officialTitle: row.officialTitle,
    licenceRequired: row.licenceRequired,
    signatureId: row.signatureId,
  };
}

export const evaluationItemsOf = (row: CourseActivityRow | undefined): EvaluationItem[] =>
  row?.evaluationItems ?? DEFAULT_EVALUATION_ITEMS;

/** After the expiration date (a whole UTC day) nobody starts the course or earns its credit. */
export const isCourseExpired = (row: CourseActivityRow | undefined, now: Date) =>
  Boolean(row?.expirationDate && now.toISOString().slice(0, 10) > row.expirationDate);

/** The end of the enrollment's validity window, when the course has one. */
export function enrollmentEndsAt(row: CourseActivityRow | undefined, enrolledAt: Date) {
  return row?.enrollmentValidDays
    ? new Date(enrolledAt.getTime() + row.enrollmentValidDays * DAY_MS)
    : null;
}

/**
 * The first moment no step may be taken on the enrollment any more (assertOpen's rule as a
 * date): the day after the course's expiration date, or the end of the enrollment's
 * validity window, whichever comes first; null when neither is set.
 */
export function validUntil(row: CourseActivityRow | undefined, enrolledAt: Date): Date | null {
  const courseEnd = row?.expirationDate
    ? new Date(Date.parse(`${row.expirationDate}T00:00:00Z`) + DAY_MS)
    : null;
  const enrollmentEnd = enrollmentEndsAt(row, enrolledAt);
  if (!courseEnd || !enrollmentEnd) return courseEnd ?? enrollmentEnd;
  return new Date(Math.min(courseEnd.getTime(), enrollmentEnd.getTime()));
}

/** Refuses any step on an expired course, or after the enrollment's validity window. */
export function assertOpen(
  row: CourseActivityRow | undefined,
  enrollment: { createdAt: Date },
  now: Date,
) {
  if (isCourseExpired(row, now)) throw courseExpired();
  const end = enrollmentEndsAt(row, enrollment.createdAt);
  if (end && now >= end) throw enrollmentExpired();
}

/** How long a credit record is kept: the course's retention from the time of the record. */
export function retainUntil(row: CourseActivityRow | undefined, at: Date): Date {
  const until = new Date(at);
  until.setUTCFullYear(
    until.getUTCFullYear() + (row?.retentionYears ?? DEFAULT_ACTIVITY.retentionYears),
  );
  return until;
}

export function licenceOf(row: Licence | undefined): Licence | null {
  if (!row) return null;
  const licence = {
    licenceType: row.licenceType,
    licenceNumber: row.licenceNumber,
    licenceState: row.licenceState,
    npn: row.npn,
  };
  return Object.values(licence).some(Boolean) ? licence : null;
}
