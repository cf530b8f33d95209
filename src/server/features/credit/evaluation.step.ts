import { defineStep } from "../enrollments/completion-steps";
import { type ActivitySettings, loadActivity } from "./activity.step";
import { createCreditRepository } from "./credit.repository";

/** The evaluation as a step of completion: required when the course asks for it. */
export const evaluationStep = defineStep<ActivitySettings>({
  key: "evaluation",
  load: loadActivity,
  record: {
    isRequired: (activity) => activity?.evaluationRequired ?? false,
    async doneAt(tx, enrollment) {
      return (await createCreditRepository(tx).submissionOf(enrollment.id))?.submittedAt ?? null;
    },
  },
});
