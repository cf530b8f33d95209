import { CREDIT_MESSAGES, REPORTING_MESSAGES, type Regulator } from "../../../contract";
import { badRequest, conflict } from "../../plugins/errors";

export const attestationDone = () =>
  conflict("attestation.already_attested", CREDIT_MESSAGES.attestationDone);
export const attestationNotAsked = () =>
  conflict("attestation.not_asked", CREDIT_MESSAGES.attestationNotAsked);
export const statementChanged = () =>
  conflict("attestation.statement_changed", CREDIT_MESSAGES.statementChanged);
// A claim the course's rules refuse is a bad request, like a malformed one: it is refused as
// sent, never rounded or capped to fit.
export const claimTooHigh = (max: number, name: string) =>
  badRequest("attestation.claim_too_high", CREDIT_MESSAGES.claimTooHigh(max, name));
export const claimOffStep = (step: number, name: string) =>
  badRequest("attestation.claim_off_step", CREDIT_MESSAGES.claimOffStep(step, name));
export const claimNeeded = () =>
  badRequest("attestation.claim_required", CREDIT_MESSAGES.claimNeeded);
export const noPartialCredit = () =>
  badRequest("attestation.no_partial_credit", CREDIT_MESSAGES.noPartialCredit);
export const unknownCreditType = () =>
  badRequest("attestation.unknown_credit_type", CREDIT_MESSAGES.unknownCreditType);
/** A claimed type reports to a regulator whose identifiers the learner has not given yet. */
export const regulatorIdsMissing = (regulator: Regulator, missing: string[]) =>
  conflict("attestation.regulator_ids_missing", REPORTING_MESSAGES.idsNeeded(regulator, missing));
/** A claimed type reports to a regulator, and the learner has not agreed to the reporting. */
export const reportingConsentRequired = (regulators: Regulator[]) =>
  badRequest(
    "attestation.reporting_consent_required",
    REPORTING_MESSAGES.consentNeeded(regulators),
  );
