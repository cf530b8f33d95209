import { defineStep } from "../enrollments/completion-steps";
import { type ActivitySettings, loadActivity } from "./activity.step";
import { createCreditRepository } from "./credit.repository";

/** The attestation as a step of completion: required when the course asks for it. */
export const attestationStep = defineStep<ActivitySettings>({
  key: "attestation",
  load: loadActivity,
  record: {
    isRequired: (activity) => activity?.attestationRequired ?? false,
    async doneAt(tx, enrollment) {
      return (await createCreditRepository(tx).attestationOf(enrollment.id))?.attestedAt ?? null;
    },
  },
});
