import { CREDIT_MESSAGES } from "../../../contract";
import { conflict } from "../../plugins/errors";

export const attestationDone = () => conflict(CREDIT_MESSAGES.attestationDone);
export const attestationNotAsked = () => conflict(CREDIT_MESSAGES.attestationNotAsked);
export const statementChanged = () => conflict(CREDIT_MESSAGES.statementChanged);
export const claimTooHigh = (max: number) => conflict(CREDIT_MESSAGES.claimTooHigh(max));
export const claimOffStep = (step: number) => conflict(CREDIT_MESSAGES.claimOffStep(step));
export const claimNeeded = () => conflict(CREDIT_MESSAGES.claimNeeded);
export const noPartialCredit = () => conflict(CREDIT_MESSAGES.noPartialCredit);
