import { type ActivitySettings, loadActivity } from "../activity/activity.read-model";
import { defineStep } from "../enrollments/completion-steps";
import { createAttestationsRepository } from "./attestations.repository";

/** The attestation as a step of completion: required when the course asks for it. */
export const attestationStep = defineStep<ActivitySettings>({
  key: "attestation",
  load: loadActivity,
  record: {
    isRequired: (activity) => activity?.attestationRequired ?? false,
    async doneAt(tx, enrollment) {
      return (
        (await createAttestationsRepository(tx).attestationOf(enrollment.id))?.attestedAt ?? null
      );
    },
  },
});
