import { DEFAULT_ACTIVITY } from "../../../contract";
import type { Executor } from "../../db/client";
import { createActivityRepository } from "./activity.repository";
import type { CourseActivityRow } from "./activity.table";

/**
 * The course's activity as the other credit features read it: the settings every credit step
 * decides by (undefined for a plain course), and the retention every credit record keeps.
 */
export type ActivitySettings = CourseActivityRow | undefined;

/**
 * The one loader of the activity row, the acknowledgement step's settings: a credit step's
 * unit carries it (its retention and dates), read once per course (course-contexts.ts).
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
