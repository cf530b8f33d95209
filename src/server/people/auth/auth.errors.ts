import { MESSAGES } from "../../../contract";
import {
  appError,
  conflict,
  forbidden,
  notFound,
  tooManyRequests,
  unauthorized,
} from "../../plugins/errors";

/** Unknown email and wrong password answer alike, so accounts cannot be enumerated. */
export const invalidCredentials = () =>
  unauthorized("auth.invalid_credentials", MESSAGES.invalidCredentials);
export const accountRestricted = () => forbidden("auth.restricted", MESSAGES.restricted);
export const accessDenied = () => forbidden("auth.access_denied", MESSAGES.accessDenied);
export const tooManyLoginAttempts = (retryAfterSeconds: number) =>
  tooManyRequests("auth.throttled", MESSAGES.tooManyAttempts, retryAfterSeconds);
export const passwordAlreadySet = () =>
  conflict("auth.password_already_set", MESSAGES.passwordAlreadySet);
export const emailTaken = () => conflict("auth.email_taken", MESSAGES.emailTaken);
export const invalidAdminKey = () => forbidden("auth.invalid_admin_key", MESSAGES.invalidAdminKey);
export const adminSetupDisabled = () =>
  forbidden(
    "auth.admin_setup_disabled",
    "Administrator setup is disabled: set ADMIN_SETUP_KEY on the server.",
  );
export const currentPasswordWrong = () =>
  appError(400, "auth.current_password_wrong", MESSAGES.currentPasswordWrong);
export const currentPasswordRequired = () =>
  appError(400, "auth.current_password_required", MESSAGES.currentPasswordRequired);
export const invitationRequired = () =>
  forbidden(
    "auth.invitation_required",
    "Please open the invitation link from your email to set your password.",
  );
export const invitationInvalid = () =>
  notFound(
    "auth.invitation_invalid",
    "This invitation link is no longer valid. Use Set Your Password to verify your email.",
  );
export const notYourAccount = () =>
  forbidden("auth.not_your_account", "You can only update your own profile.");
export const learnerNotFound = () => notFound("learners.not_found", "Learner not found.");
export const invalidResetLink = () =>
  appError(
    400,
    "auth.reset_link_invalid",
    "This reset link is invalid or has expired. Please request a new one.",
  );

/** Identity-service sign-in: the server acts only on what it verified itself. */
export const identityMismatch = () =>
  appError(
    401,
    "auth.identity_mismatch",
    "The sign-in token does not belong to this account. Please sign in again.",
  );
export const identityInUse = () =>
  conflict("auth.identity_in_use", "This sign-in account is already linked to another user.");
export const identityEmailNotVerified = () =>
  forbidden(
    "auth.identity_email_unverified",
    "Your email address is not verified with the sign-in service yet. Sign in with your password instead.",
  );
export const sessionNotFound = () =>
  notFound("auth.session_not_found", "This session has already ended.");
export const sessionIsCurrent = () =>
  conflict("auth.session_current", "This is the session you are using: log out to end it.");
