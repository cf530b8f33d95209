import { defineStep } from "../enrollments/completion-steps";
import { reviewFirst } from "./assessments.errors";
import { createAssessmentsRepository } from "./assessments.repository";
import { settingsOrDefault } from "./questions.service";

/** The review questions that count, by module: every one, when the course requires review. */
interface ReviewSettings {
  all: string[];
  byModule: Map<string, string[]>;
}

/**
 * Review questions as a step of completion: 'Mark as Complete' waits until every review
 * question of the module was answered once, right or wrong, and the review step is done
 * once every review question of the course has been. A course whose settings make review
 * optional asks for neither.
 */
export const reviewStep = defineStep<ReviewSettings>({
  key: "review",
  async load(db, courseId) {
    const repo = createAssessmentsRepository(db);
    const required = settingsOrDefault(await repo.settingsOf(courseId)).reviewRequired;
    const questions = required ? await repo.reviewQuestionIds(courseId) : [];
    const byModule = new Map<string, string[]>();
    for (const q of questions) {
      if (q.moduleId) byModule.set(q.moduleId, [...(byModule.get(q.moduleId) ?? []), q.id]);
    }
    return { all: questions.map((q) => q.id), byModule };
  },
  record: {
    isRequired: (settings) => settings.all.length > 0,
    async doneAt(tx, enrollment, settings) {
      const answers = await createAssessmentsRepository(tx).reviewAnswersOf(
        enrollment.id,
        settings.all,
      );
      if (!settings.all.length || answers.length < settings.all.length) return null;
      return new Date(Math.max(...answers.map((a) => a.answeredAt.getTime())));
    },
  },
  async checkModule(tx, { enrollment, moduleId, settings }) {
    const ids = settings.byModule.get(moduleId);
    if (!ids?.length) return;
    const answered = await createAssessmentsRepository(tx).reviewAnswersOf(enrollment.id, ids);
    if (answered.length < ids.length) throw reviewFirst();
  },
});
