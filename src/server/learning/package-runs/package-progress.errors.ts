import { MESSAGES, PACKAGE_PROGRESS_MESSAGES } from "../../../contract";
import { conflict, notFound } from "../../plugins/errors";

export const courseNotFound = () => notFound("courses.not_found", MESSAGES.courseNotFound);
export const moduleNotInCourse = () =>
  notFound("courses.module_not_found", "Module not found in this course.");
export const learnerNotEnrolled = () =>
  notFound("enrollments.not_found", "This learner is not enrolled in this course.");
export const notAPackageModule = () =>
  conflict("attempts.not_a_package", PACKAGE_PROGRESS_MESSAGES.notAPackage);
export const nothingToReset = () =>
  conflict("attempts.nothing_to_reset", PACKAGE_PROGRESS_MESSAGES.nothingToReset);
