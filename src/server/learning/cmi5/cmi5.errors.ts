import { MESSAGES } from "../../../contract";
import {
  appError,
  badRequest,
  conflict,
  forbidden,
  notFound,
  unauthorized,
} from "../../plugins/errors";

export const courseNotFound = () => notFound("courses.not_found", MESSAGES.courseNotFound);
export const notEnrolled = () =>
  forbidden("enrollments.not_enrolled", "You are not enrolled in this course.");
export const enrollmentNotFound = () => notFound("enrollments.not_found", "Enrollment not found.");
export const moduleNotInCourse = () =>
  notFound("courses.module_not_found", "Module not found in this course.");
export const moduleLocked = () =>
  conflict("courses.module_locked", "This module is locked. Complete the previous module first.");
export const notCmi5Module = () =>
  notFound("cmi5.not_cmi5_module", "This module is not a cmi5 course.");
export const auNotFound = () =>
  notFound("cmi5.au_not_found", "This cmi5 course has no such assignable unit.");
export const notLaunched = () =>
  conflict(
    "cmi5.not_launched",
    "The learner has not started this module yet: there is no registration to waive a unit in.",
  );
export const alreadySatisfied = () =>
  conflict("cmi5.already_satisfied", "This unit already counts for the learner: nothing to waive.");

/** A statement or document the cmi5 rules forbid the AU to send (xAPI answers 403). */
export const statementRefused = (rule: string) =>
  forbidden("cmi5.statement_refused", `Refused by the cmi5 rules: ${rule}`);
/** A request that is not valid xAPI (xAPI answers 400). */
export const invalidXapi = (problem: string) =>
  badRequest("xapi.invalid_request", `Not a valid xAPI request: ${problem}`);
export const xapiUnauthorized = () =>
  unauthorized(
    "xapi.unauthorized",
    "This request needs the auth token of an open cmi5 session (Authorization: Basic).",
  );
export const xapiForbidden = (what: string) =>
  forbidden("xapi.forbidden", `This session's token does not cover ${what}.`);
export const xapiNotFound = () => notFound("xapi.not_found", "No such document or statement.");
export const statementConflict = () =>
  conflict("xapi.statement_conflict", "A different statement with this id is already stored.");
/** A document write whose If-Match or If-None-Match the stored document no longer meets. */
export const xapiPreconditionFailed = () =>
  appError(
    412,
    "xapi.precondition_failed",
    "The document is not the one this write expects (If-Match or If-None-Match): read it again.",
  );
/** A write that would take a registration's or a learner's xAPI storage past its bound. */
export const xapiStorageFull = (what: string) =>
  appError(413, "xapi.storage_full", `Not stored: ${what}`);
