import { defineStep } from "../enrollments/completion-steps";
import { type AssessmentSettings, loadAssessmentSettings } from "./assessment-settings";
import { createAssessmentsRepository } from "./assessments.repository";

/**
 * The final exam as a step of completion: required when enabled, done at the first pass;
 * the certificate records the passing score and time.
 */
export const examStep = defineStep<AssessmentSettings>({
  key: "exam",
  load: loadAssessmentSettings,
  record: {
    isRequired: ({ exam }) => exam.enabled,
    async doneAt(tx, enrollment) {
      return (
        (await createAssessmentsRepository(tx).passedAttempt(enrollment.id))?.submittedAt ?? null
      );
    },
  },
  async creditFacts(tx, enrollment) {
    const pass = await createAssessmentsRepository(tx).passedAttempt(enrollment.id);
    return pass?.score != null && pass.submittedAt
      ? { examScore: pass.score, examPassedAt: pass.submittedAt }
      : {};
  },
});
