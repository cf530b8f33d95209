import { MESSAGES } from "../../../contract";
import { badRequest, conflict, forbidden, notFound } from "../../plugins/errors";

export const notSatisfied = () =>
  conflict(
    "modules.package_reports_completion",
    "This module is a SCORM or cmi5 package: it is complete when its content reports it, not with Mark as Complete.",
  );

export const notSeatedInPackage = (remainingSeconds: number) =>
  conflict(
    "modules.package_seat_time",
    `The course asks for more time with this module's content: ${Math.ceil(remainingSeconds / 60)} more minute(s).`,
  );

export const courseNotFound = () => notFound("courses.not_found", MESSAGES.courseNotFound);
export const notEnrolled = () =>
  forbidden("enrollments.not_enrolled", "You are not enrolled in this course.");
export const moduleNotInCourse = () =>
  notFound("courses.module_not_found", "Module not found in this course.");
export const moduleLocked = () =>
  conflict("courses.module_locked", "This module is locked. Complete the previous module first.");
export const notAPackage = () =>
  conflict("modules.not_a_package", "This module plays a video, not a SCORM or cmi5 package.");
export const attemptEnded = () =>
  conflict(
    "modules.package_attempt_ended",
    "Your attempt at this module has ended: an administrator reset it, or its content changed. Reopen the module to start again.",
  );
export const itemNotFound = () =>
  notFound("modules.package_item_not_found", "This module's package has no such item.");
export const dataInvalid = (fault: string) =>
  badRequest(
    "modules.package_data_invalid",
    `The module's content sent progress the portal cannot keep (${fault}). Reload the page to continue.`,
  );
