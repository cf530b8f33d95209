import { CREDIT_MESSAGES, MESSAGES } from "../../../contract";
import { badRequest, conflict, notFound } from "../../plugins/errors";

export const courseNotFound = () => notFound(MESSAGES.courseNotFound);
export const signatureNotFound = () => notFound("Signature not found.");
export const notAnImage = () => badRequest("Upload a PNG or JPEG image of at most 150 KB.");
export const courseExpired = () => conflict(CREDIT_MESSAGES.courseExpired);
export const enrollmentExpired = () => conflict(CREDIT_MESSAGES.enrollmentExpired);
export const acknowledgeFirst = () => conflict(CREDIT_MESSAGES.acknowledgeFirst);
export const evaluationDone = () => conflict(CREDIT_MESSAGES.evaluationDone);
export const attestationDone = () => conflict(CREDIT_MESSAGES.attestationDone);
export const attestationNotAsked = () => conflict(CREDIT_MESSAGES.attestationNotAsked);
export const statementChanged = () => conflict(CREDIT_MESSAGES.statementChanged);
export const claimTooHigh = (max: number) => conflict(CREDIT_MESSAGES.claimTooHigh(max));
export const claimOffStep = (step: number) => conflict(CREDIT_MESSAGES.claimOffStep(step));
export const claimNeeded = () => conflict(CREDIT_MESSAGES.claimNeeded);
export const noPartialCredit = () => conflict(CREDIT_MESSAGES.noPartialCredit);
export const badAnswers = (message: string) => badRequest(`answers: ${message}`);
