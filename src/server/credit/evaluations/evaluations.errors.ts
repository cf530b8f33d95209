import { CREDIT_MESSAGES } from "../../../contract";
import { conflict, invalidField } from "../../plugins/errors";

export const evaluationNotAsked = () =>
  conflict("evaluation.not_asked", CREDIT_MESSAGES.evaluationNotAsked);
export const evaluationDone = () =>
  conflict("evaluation.already_submitted", CREDIT_MESSAGES.evaluationDone);
export const badAnswers = (message: string) =>
  invalidField("evaluation.invalid_answers", "answers", message);
