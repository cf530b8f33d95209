import { COMPLETION_STEP_LABELS, CREDIT_MESSAGES, type FormStepKey } from "../../../contract";
import { conflict, invalidField } from "../../plugins/errors";

const named = (step: FormStepKey) => COMPLETION_STEP_LABELS[step].toLowerCase();

export const alreadyAnswered = (step: FormStepKey) =>
  conflict("forms.already_answered", `You have already answered the ${named(step)}.`);
export const notAsked = (step: FormStepKey) =>
  conflict("forms.not_asked", CREDIT_MESSAGES.formStepNotAsked(named(step)));
export const badAnswers = (message: string) =>
  invalidField("forms.invalid_answers", "answers", message);
