import { MESSAGES } from "../../../contract";
import {
  AppError,
  conflict,
  forbidden,
  notFound,
  tooManyRequests,
  unauthorized,
} from "../../plugins/errors";

/** Unknown email and wrong password answer alike, so accounts cannot be enumerated. */
export const invalidCredentials = () => unauthorized(MESSAGES.invalidCredentials);
export const accountRestricted = () => forbidden(MESSAGES.restricted);
export const accessDenied = () => forbidden(MESSAGES.accessDenied);
export const tooManyLoginAttempts = (retryAfterSeconds: number) =>
  tooManyRequests(MESSAGES.tooManyAttempts, retryAfterSeconds);
export const passwordAlreadySet = () => conflict(MESSAGES.passwordAlreadySet);
export const emailTaken = () => conflict(MESSAGES.emailTaken);
export const invalidAdminKey = () => forbidden(MESSAGES.invalidAdminKey);
export const adminSetupDisabled = () =>
  forbidden("Administrator setup is disabled: set ADMIN_SETUP_KEY on the server.");
export const currentPasswordWrong = () => new AppError(400, MESSAGES.currentPasswordWrong);
export const currentPasswordRequired = () => new AppError(400, MESSAGES.currentPasswordRequired);
export const invitationRequired = () =>
  forbidden("Please open the invitation link from your email to set your password.");
export const invitationInvalid = () =>
  notFound("This invitation link is no longer valid. Use Set Your Password to verify your email.");
export const notYourAccount = () => forbidden("You can only update your own profile.");
export const learnerNotFound = () => notFound("Learner not found.");
export const invalidResetLink = () =>
  new AppError(400, "This reset link is invalid or has expired. Please request a new one.");

/** Identity-service sign-in: the server acts only on what it verified itself. */
export const identityMismatch = () =>
  new AppError(401, "The sign-in token does not belong to this account. Please sign in again.");
export const identityInUse = () =>
  conflict("This sign-in account is already linked to another user.");
export const identityEmailNotVerified = () =>
  forbidden(
    "Your email address is not verified with the sign-in service yet. Sign in with your password instead.",
  );
