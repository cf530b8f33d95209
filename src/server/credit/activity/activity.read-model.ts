import { type CreditSettings, DEFAULT_ACTIVITY, DEFAULT_CREDIT_SETTINGS } from "../../../contract";
import type { Executor } from "../../db/client";
import { createActivityRepository } from "./activity.repository";
import type { CourseActivityRow } from "./activity.table";

/**
 * The course's activity as the other credit features read it: the settings every credit step
 * decides by (undefined for a plain course), and the retention every credit record keeps.
 */
export type ActivitySettings = CourseActivityRow | undefined;

/**
 * The one loader of the activity row: the acknowledgement, evaluation, attestation and
 * credit-ready certificate steps all load with it, so a course's row is read once for them
 * all (course-contexts.ts runs each distinct loader once per course).
 */
export const loadActivity = (db: Executor, courseId: string): Promise<ActivitySettings> =>
  createActivityRepository(db).activityOf(courseId);

/** How long a credit record is kept: the course's retention from the time of the record. */
export function retainUntil(activity: ActivitySettings, at: Date): Date {
  const until = new Date(at);
  until.setUTCFullYear(
    until.getUTCFullYear() + (activity?.retentionYears ?? DEFAULT_ACTIVITY.retentionYears),
  );
  return until;
}

/**
 * The course's credit settings as the activity page, the credit settings dialog and the
 * credit-ready certificate show them; the defaults for a plain course.
 */
export function creditSettingsOf(row: ActivitySettings): CreditSettings {
  if (!row) return DEFAULT_CREDIT_SETTINGS;
  return {
    sponsorName: row.sponsorName,
    sponsorAddress: row.sponsorAddress,
    deliveryMethod: row.deliveryMethod,
    fieldsOfStudy: row.fieldsOfStudy,
    officialName: row.officialName,
    officialTitle: row.officialTitle,
    signatureId: row.signatureId,
  };
}
