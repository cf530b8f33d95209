import { defineStep } from "../enrollments/completion-steps";
import { type AssessmentSettings, loadAssessmentSettings } from "./assessment-settings";
import { reviewFirst } from "./assessments.errors";
import { createAssessmentsRepository } from "./assessments.repository";

/**
 * Review questions as a step of completion: 'Mark as Complete' waits until every review
 * question of the module was answered once, right or wrong, and the review step is done
 * once every review question of the course has been. A course whose settings make review
 * optional asks for neither.
 */
export const reviewStep = defineStep<AssessmentSettings>({
  key: "review",
  load: loadAssessmentSettings,
  record: {
    isRequired: ({ review }) => review.all.length > 0,
    async doneAt(tx, enrollment, { review }) {
      const answers = await createAssessmentsRepository(tx).reviewAnswersOf(
        enrollment.id,
        review.all,
      );
      if (!review.all.length || answers.length < review.all.length) return null;
      return new Date(Math.max(...answers.map((a) => a.answeredAt.getTime())));
    },
  },
  async checkModule(tx, { enrollment, moduleId, settings }) {
    const ids = settings.review.byModule.get(moduleId);
    if (!ids?.length) return;
    const answered = await createAssessmentsRepository(tx).reviewAnswersOf(enrollment.id, ids);
    if (answered.length < ids.length) throw reviewFirst();
  },
});
