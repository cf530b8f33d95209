import { CREDIT_MESSAGES, MESSAGES } from "../../../contract";
import { conflict, forbidden, notFound } from "../../plugins/errors";

export const courseNotFound = () => notFound("courses.not_found", MESSAGES.courseNotFound);
export const notEnrolled = () =>
  forbidden("enrollments.not_enrolled", "You are not enrolled in this course.");
export const courseExpired = () => conflict("credit.expired", CREDIT_MESSAGES.courseExpired);
export const enrollmentExpired = () =>
  conflict("credit.enrollment_expired", CREDIT_MESSAGES.enrollmentExpired);
export const acknowledgeFirst = () =>
  conflict("credit.acknowledge_first", CREDIT_MESSAGES.acknowledgeFirst);
