import { CREDIT_MESSAGES } from "../../../contract";
import { conflict } from "../../plugins/errors";

export const attestationDone = () =>
  conflict("attestation.already_attested", CREDIT_MESSAGES.attestationDone);
export const attestationNotAsked = () =>
  conflict("attestation.not_asked", CREDIT_MESSAGES.attestationNotAsked);
export const statementChanged = () =>
  conflict("attestation.statement_changed", CREDIT_MESSAGES.statementChanged);
export const claimTooHigh = (max: number) =>
  conflict("attestation.claim_too_high", CREDIT_MESSAGES.claimTooHigh(max));
export const claimOffStep = (step: number) =>
  conflict("attestation.claim_off_step", CREDIT_MESSAGES.claimOffStep(step));
export const claimNeeded = () =>
  conflict("attestation.claim_required", CREDIT_MESSAGES.claimNeeded);
export const noPartialCredit = () =>
  conflict("attestation.no_partial_credit", CREDIT_MESSAGES.noPartialCredit);
