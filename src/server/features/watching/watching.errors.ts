import { MESSAGES, WATCH_MESSAGES } from "../../../contract";
import { badRequest, conflict, forbidden, notFound } from "../../plugins/errors";

export const courseNotFound = () => notFound(MESSAGES.courseNotFound);
export const notEnrolled = () => forbidden("You are not enrolled in this course.");
export const enrollmentNotFound = () => notFound("Enrollment not found.");
export const moduleNotInCourse = () => notFound("Module not found in this course.");
export const moduleLocked = () =>
  conflict("This module is locked. Complete the previous module first.");
export const beyondDuration = () => badRequest(WATCH_MESSAGES.beyondDuration);
export const durationMismatch = () => badRequest(WATCH_MESSAGES.durationMismatch);
export const impossibleReport = () => badRequest(WATCH_MESSAGES.impossibleReport);
export const notWatchedEnough = (minPercent: number) =>
  conflict(WATCH_MESSAGES.notWatchedEnough(minPercent));
export const notSeatedEnough = (minSeconds: number) =>
  conflict(WATCH_MESSAGES.notSeatedEnough(minSeconds));
