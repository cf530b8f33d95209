import { ASSESSMENT_MESSAGES, MESSAGES } from "../../../contract";
import { badRequest, conflict, forbidden, invalidField, notFound } from "../../plugins/errors";

export const courseNotFound = () => notFound("courses.not_found", MESSAGES.courseNotFound);
export const questionNotFound = () => notFound("questions.not_found", "Question not found.");
export const attemptNotFound = () => notFound("exam.attempt_not_found", "Exam attempt not found.");
export const moduleNotInCourse = () =>
  notFound("courses.module_not_found", "Module not found in this course.");
export const moduleLocked = () =>
  conflict("courses.module_locked", "This module is locked. Complete the previous module first.");
export const notEnrolled = () =>
  forbidden("enrollments.not_enrolled", "You are not enrolled in this course.");
export const notYourAttempt = () =>
  forbidden("exam.not_your_attempt", ASSESSMENT_MESSAGES.notYourAttempt);
export const notPresented = () =>
  badRequest("exam.question_not_presented", ASSESSMENT_MESSAGES.notPresented);
export const answeredTwice = () =>
  badRequest("exam.question_answered_twice", ASSESSMENT_MESSAGES.answeredTwice);
export const reviewChoiceRequired = () =>
  badRequest("review.choice_required", ASSESSMENT_MESSAGES.reviewChoiceRequired);
export const oneOptionOnly = () =>
  badRequest("exam.one_option_only", ASSESSMENT_MESSAGES.oneOptionOnly);
export const unknownModule = () =>
  invalidField("questions.unknown_module", "moduleId", "That module is not part of this course.");
export const notTheCourseQuestions = () =>
  invalidField(
    "questions.order_mismatch",
    "questionIds",
    "List every question of this course exactly once.",
  );
export const tooManyQuestions = (max: number) =>
  conflict("questions.too_many", `A course holds at most ${max} questions.`);
export const reviewFirst = () => conflict("review.answer_first", ASSESSMENT_MESSAGES.reviewFirst);
export const examDisabled = () => conflict("exam.disabled", ASSESSMENT_MESSAGES.examDisabled);
export const examNotOpen = () => conflict("exam.not_open", ASSESSMENT_MESSAGES.examNotOpen);
export const noAttemptsLeft = () =>
  conflict("exam.no_attempts_left", ASSESSMENT_MESSAGES.noAttemptsLeft);
export const alreadySubmitted = () =>
  conflict("exam.attempt_submitted", ASSESSMENT_MESSAGES.alreadySubmitted);
export const alreadyPassed = () =>
  conflict("exam.already_passed", ASSESSMENT_MESSAGES.alreadyPassed);
export const timeUp = () => conflict("exam.deadline_passed", ASSESSMENT_MESSAGES.timeUp);
export const notEnoughQuestions = (pool: number, drawn: number) =>
  conflict("exam.not_enough_questions", ASSESSMENT_MESSAGES.notEnoughQuestions(pool, drawn));
export const notGradedYet = () =>
  conflict("exam.not_graded", "This attempt has not been submitted yet.");
