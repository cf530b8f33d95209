import { type CompletionStepKey, MESSAGES, stepFirstMessage } from "../../../contract";
import { conflict, forbidden, invalidField, notFound } from "../../plugins/errors";

export const alreadyEnrolled = () =>
  conflict("enrollments.already_enrolled", "This learner is already enrolled in this course.");
export const courseNotPublished = () =>
  conflict("enrollments.course_unpublished", "Only published courses can be assigned to learners.");
export const notALearner = () =>
  invalidField(
    "enrollments.not_a_learner",
    "userId",
    "This person is not a learner of this portal.",
  );
export const notLearners = (count: number) =>
  invalidField(
    "enrollments.not_learners",
    "userIds",
    `${count === 1 ? "1 selected person is not a learner" : `${count} selected people are not learners`} of this portal.`,
  );
export const enrollmentNotFound = () => notFound("enrollments.not_found", "Enrollment not found.");
export const courseNotFound = () => notFound("courses.not_found", MESSAGES.courseNotFound);
export const notEnrolled = () =>
  forbidden("enrollments.not_enrolled", "You are not enrolled in this course.");
export const notYourProgress = () =>
  forbidden("enrollments.not_your_progress", "You can only update your own progress.");
export const learnerRequired = () =>
  invalidField("enrollments.learner_required", "userId", "Choose the learner to look at.");
export const notYourEnrollments = () =>
  forbidden("enrollments.not_your_enrollments", "You can only view your own enrollments.");
export const moduleNotInCourse = () =>
  notFound("courses.module_not_found", "Module not found in this course.");
export const courseUnavailable = () =>
  conflict(
    "courses.unpublished",
    "This course is unavailable: the provider has taken it offline for now.",
  );
export const moduleLocked = () =>
  conflict("courses.module_locked", "This module is locked. Complete the previous module first.");
export const stepOutOfOrder = (step: CompletionStepKey) =>
  conflict("credit.step_out_of_order", stepFirstMessage(step));
