import { MESSAGES, WATCH_MESSAGES } from "../../../contract";
import { badRequest, conflict, forbidden, notFound } from "../../plugins/errors";

export const courseNotFound = () => notFound("courses.not_found", MESSAGES.courseNotFound);
export const notEnrolled = () =>
  forbidden("enrollments.not_enrolled", "You are not enrolled in this course.");
export const enrollmentNotFound = () => notFound("enrollments.not_found", "Enrollment not found.");
export const moduleNotInCourse = () =>
  notFound("courses.module_not_found", "Module not found in this course.");
export const moduleLocked = () =>
  conflict("courses.module_locked", "This module is locked. Complete the previous module first.");
export const beyondDuration = () =>
  badRequest("watching.beyond_duration", WATCH_MESSAGES.beyondDuration);
export const durationMismatch = () =>
  badRequest("watching.duration_mismatch", WATCH_MESSAGES.durationMismatch);
export const impossibleReport = () =>
  badRequest("watching.impossible_report", WATCH_MESSAGES.impossibleReport);
export const notWatchedEnough = (minPercent: number) =>
  conflict("watching.not_watched_enough", WATCH_MESSAGES.notWatchedEnough(minPercent));
export const notSeatedEnough = (minSeconds: number) =>
  conflict("watching.not_seated_enough", WATCH_MESSAGES.notSeatedEnough(minSeconds));
export const notAVideo = () =>
  conflict(
    "watching.not_a_video",
    "This module plays a SCORM or cmi5 package, not a video: its player measures its time.",
  );
