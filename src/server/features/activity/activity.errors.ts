import { CREDIT_MESSAGES, MESSAGES } from "../../../contract";
import { conflict, forbidden, notFound } from "../../plugins/errors";

export const courseNotFound = () => notFound(MESSAGES.courseNotFound);
export const notEnrolled = () => forbidden("You are not enrolled in this course.");
export const courseExpired = () => conflict(CREDIT_MESSAGES.courseExpired);
export const enrollmentExpired = () => conflict(CREDIT_MESSAGES.enrollmentExpired);
export const acknowledgeFirst = () => conflict(CREDIT_MESSAGES.acknowledgeFirst);
