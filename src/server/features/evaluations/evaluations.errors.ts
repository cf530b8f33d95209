import { CREDIT_MESSAGES } from "../../../contract";
import { badRequest, conflict } from "../../plugins/errors";

export const evaluationDone = () => conflict(CREDIT_MESSAGES.evaluationDone);
export const badAnswers = (message: string) => badRequest(`answers: ${message}`);
