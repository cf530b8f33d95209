import { SECOND_FACTOR_TEXTS } from "../../../contract";
import {
  appError,
  badRequest,
  conflict,
  invalidField,
  notFound,
  unauthorized,
} from "../../plugins/errors";

export const challengeExpired = () =>
  unauthorized("mfa.challenge_expired", SECOND_FACTOR_TEXTS.expired);
export const codeInvalid = () =>
  unauthorized("mfa.code_invalid", "That code is not right. Try the newest code.");
export const codeReused = () =>
  unauthorized(
    "mfa.code_reused",
    "That code was already used. Wait for your app to show a new one.",
  );
export const recoveryCodeUsed = () =>
  unauthorized("mfa.recovery_code_used", "That recovery code is not valid or was already used.");
export const passkeyUnknown = () =>
  unauthorized("mfa.passkey_unknown", "That passkey does not belong to this account.");
export const passkeyInvalid = () =>
  unauthorized("mfa.passkey_invalid", "The passkey could not be confirmed. Please try again.");
export const setupRequired = () =>
  conflict("mfa.setup_required", SECOND_FACTOR_TEXTS.setupDescription);
export const setupNotRequired = () =>
  conflict("mfa.setup_not_required", "This sign-in needs no new second factor.");
export const setupNotStarted = () =>
  conflict("mfa.setup_not_started", "Start adding the passkey or authenticator app again.");
export const setupCodeInvalid = () =>
  invalidField(
    "mfa.setup_code_invalid",
    "code",
    "That code is not right. Check the time on your device and enter the newest code.",
  );
export const passkeyRegistrationInvalid = () =>
  badRequest(
    "mfa.passkey_registration_invalid",
    "The passkey could not be added. Please try again.",
  );
export const totpExists = () =>
  conflict(
    "mfa.totp_exists",
    "An authenticator app is already set up. Remove it before adding another.",
  );
export const factorNotFound = () => notFound("mfa.not_found", "This second factor does not exist.");
export const confirmationWrong = () =>
  invalidField("mfa.confirmation_wrong", "password", "That password or code is not right.");
export const enrolFirst = () =>
  conflict(
    "mfa.enrol_first",
    "Add a passkey or an authenticator app to your own account before requiring one of every administrator.",
  );
export const requiredByOrganisation = () =>
  conflict(
    "mfa.required_by_organisation",
    "Your organisation requires a second factor: add another before removing your last one.",
  );
export const secretsKeyMissing = () =>
  appError(
    503,
    "mfa.secrets_key_missing",
    "Authenticator apps cannot be added until SECRETS_KEY is set on the server.",
  );
export const signInRequired = () =>
  unauthorized("mfa.sign_in_required", "Please sign in with your password to confirm it's you.");
