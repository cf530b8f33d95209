import { ASSESSMENT_MESSAGES, MESSAGES } from "../../../contract";
import { badRequest, conflict, forbidden, notFound } from "../../plugins/errors";

export const courseNotFound = () => notFound(MESSAGES.courseNotFound);
export const questionNotFound = () => notFound("Question not found.");
export const attemptNotFound = () => notFound("Exam attempt not found.");
export const moduleNotInCourse = () => notFound("Module not found in this course.");
export const moduleLocked = () =>
  conflict("This module is locked. Complete the previous module first.");
export const notEnrolled = () => forbidden("You are not enrolled in this course.");
export const notYourAttempt = () => forbidden(ASSESSMENT_MESSAGES.notYourAttempt);
export const notPresented = () => badRequest(ASSESSMENT_MESSAGES.notPresented);
export const oneOptionOnly = () => badRequest(ASSESSMENT_MESSAGES.oneOptionOnly);
export const unknownModule = () => badRequest("moduleId: no such module in this course.");
export const notTheCourseQuestions = () =>
  badRequest("questionIds: list every question of this course exactly once.");
export const tooManyQuestions = (max: number) =>
  conflict(`A course holds at most ${max} questions.`);
export const reviewFirst = () => conflict(ASSESSMENT_MESSAGES.reviewFirst);
export const examDisabled = () => conflict(ASSESSMENT_MESSAGES.examDisabled);
export const examNotOpen = () => conflict(ASSESSMENT_MESSAGES.examNotOpen);
export const noAttemptsLeft = () => conflict(ASSESSMENT_MESSAGES.noAttemptsLeft);
export const alreadySubmitted = () => conflict(ASSESSMENT_MESSAGES.alreadySubmitted);
export const alreadyPassed = () => conflict(ASSESSMENT_MESSAGES.alreadyPassed);
export const timeUp = () => conflict(ASSESSMENT_MESSAGES.timeUp);
export const notEnoughQuestions = (pool: number, drawn: number) =>
  conflict(ASSESSMENT_MESSAGES.notEnoughQuestions(pool, drawn));
export const notGradedYet = () => conflict("This attempt has not been submitted yet.");
