import type { ExamSettingsBody } from "../../../contract";
import { defineStep } from "../enrollments/completion-steps";
import { createAssessmentsRepository } from "./assessments.repository";
import { settingsOrDefault } from "./questions.service";

/**
 * The final exam as a step of completion: required when enabled, done at the first pass;
 * the certificate records the passing score and time.
 */
export const examStep = defineStep<ExamSettingsBody>({
  key: "exam",
  load: async (db, courseId) =>
    settingsOrDefault(await createAssessmentsRepository(db).settingsOf(courseId)),
  record: {
    isRequired: (settings) => settings.enabled,
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
