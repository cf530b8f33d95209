import { type ActivitySettings, loadActivity } from "../activity/activity.read-model";
import { defineStep } from "../enrollments/completion-steps";
import { createEvaluationsRepository } from "./evaluations.repository";

/** The evaluation as a step of completion: required when the course asks for it. */
export const evaluationStep = defineStep<ActivitySettings>({
  key: "evaluation",
  load: loadActivity,
  record: {
    isRequired: (activity) => activity?.evaluationRequired ?? false,
    async doneAt(tx, enrollment) {
      return (
        (await createEvaluationsRepository(tx).submissionOf(enrollment.id))?.submittedAt ?? null
      );
    },
  },
});
