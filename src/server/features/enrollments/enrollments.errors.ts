import {
  COMPLETION_STEP_LABELS,
  type CompletionStepKey,
  CREDIT_MESSAGES,
  MESSAGES,
} from "../../../contract";
import { badRequest, conflict, forbidden, notFound } from "../../plugins/errors";

export const alreadyEnrolled = () => conflict("This learner is already enrolled in this course.");
export const courseNotPublished = () =>
  conflict("Only published courses can be assigned to learners.");
export const notALearner = () => badRequest("userId: not a learner of this portal.");
export const notLearners = (count: number) =>
  badRequest(
    `userIds: ${count === 1 ? "1 selected id is not a learner" : `${count} selected ids are not learners`} of this portal.`,
  );
export const enrollmentNotFound = () => notFound("Enrollment not found.");
export const courseNotFound = () => notFound(MESSAGES.courseNotFound);
export const notEnrolled = () => forbidden("You are not enrolled in this course.");
export const notYourProgress = () => forbidden("You can only update your own progress.");
export const learnerRequired = () => badRequest("userId: name the learner to look at.");
export const notYourEnrollments = () => forbidden("You can only view your own enrollments.");
export const moduleNotInCourse = () => notFound("Module not found in this course.");
export const courseUnavailable = () =>
  conflict("This course is unavailable: the provider has taken it offline for now.");
export const moduleLocked = () =>
  conflict("This module is locked. Complete the previous module first.");
export const stepOutOfOrder = (step: CompletionStepKey) =>
  conflict(CREDIT_MESSAGES.outOfOrder(COMPLETION_STEP_LABELS[step].toLowerCase()));
