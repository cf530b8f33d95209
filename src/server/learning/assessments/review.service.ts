import { type Answer, isModuleUnlocked, type Review, type ReviewResult } from "../../../contract";
import type { Database } from "../../db/client";
import { defineStep } from "../enrollments/completion-steps";
import type { EnrollmentsService } from "../enrollments/enrollments.service";
import { type AssessmentSettings, loadAssessmentSettings } from "./assessment-settings";
import {
  moduleLocked,
  moduleNotInCourse,
  notEnrolled,
  reviewChoiceRequired,
  reviewFirst,
} from "./assessments.errors";
import { createAssessmentsRepository } from "./assessments.repository";
import type { QuestionRow } from "./assessments.table";
import { checkedAnswers, isCorrect, presented } from "./grading";

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

export interface ReviewServiceDeps {
  db: Database;
  courses: { moduleIds(courseId: string): Promise<string[]> };
  /** The learner's standing (cached) and the unit of work every learner step runs in. */
  enrollments: Pick<EnrollmentsService, "findEnrollment" | "takeStep">;
}

/** The feedback a learner reads after answering: the chosen options' notes, then the why. */
function feedbackFor(question: QuestionRow, chosen: string[]): string | null {
  const notes = question.options.filter((o) => chosen.includes(o.id) && o.feedback);
  const parts = [
    ...notes.map((o) => o.feedback!),
    ...(question.explanation ? [question.explanation] : []),
  ];
  return parts.length ? parts.join(" ") : null;
}

/**
 * Review questions after a module's video: answered for the feedback, graded by the server,
 * and, when the course requires it, answered once before the module can be completed.
 */
export function createReviewService(deps: ReviewServiceDeps) {
  const { db } = deps;
  const repo = createAssessmentsRepository(db);

  /** The learner's enrollment, when the module is theirs to open now. */
  async function openModule(userId: string, courseId: string, moduleId: string) {
    const enrollment = await deps.enrollments.findEnrollment(userId, courseId);
    if (!enrollment) throw notEnrolled();
    const order = await deps.courses.moduleIds(courseId);
    if (!order.includes(moduleId)) throw moduleNotInCourse();
    const done = enrollment.completed.filter((id) => order.includes(id));
    if (!isModuleUnlocked(order, moduleId, done)) throw moduleLocked();
    return enrollment;
  }

  return {
    async get(userId: string, courseId: string, moduleId: string): Promise<Review> {
      const enrollment = await openModule(userId, courseId, moduleId);
      const questions = await repo.questionsOfModule(courseId, moduleId);
      const answers = await repo.reviewAnswersOf(
        enrollment.id,
        questions.map((q) => q.id),
      );
      return {
        questions: questions.map(presented),
        answered: questions.length > 0 && answers.length === questions.length,
      };
    },

    /**
     * Grades and records the learner's answers to a module's review questions, in the unit
     * of work of the modules step: a course offline or expired takes no answers.
     */
    async answer(
      userId: string,
      courseId: string,
      moduleId: string,
      answers: Answer[],
    ): Promise<ReviewResult> {
      const questions = await repo.questionsOfModule(courseId, moduleId);
      const results = await deps.enrollments.takeStep({
        userId,
        courseId,
        step: "modules",
        async write({ tx, enrollment, context, completions, now, assertInOrder, audit }) {
          // A module's questions open with the module: after the steps before the modules.
          await assertInOrder();
          const order = context.modules;
          if (!order.includes(moduleId)) throw moduleNotInCourse();
          const done = order.filter((id) => completions.has(id));
          if (!isModuleUnlocked(order, moduleId, done)) throw moduleLocked();
          const chosen = checkedAnswers(questions, answers);
          // Choosing nothing is not an answer: a module's review cannot be passed by skipping it.
          if ([...chosen.values()].some((optionIds) => optionIds.length === 0)) {
            throw reviewChoiceRequired();
          }
          const byId = new Map(questions.map((q) => [q.id, q]));
          const graded = [...chosen].map(([questionId, optionIds]) => {
            const question = byId.get(questionId)!;
            return {
              questionId,
              optionIds,
              correct: isCorrect(question.options, optionIds),
              feedback: feedbackFor(question, optionIds),
            };
          });
          await createAssessmentsRepository(tx).saveReviewAnswers(
            graded.map((r) => ({
              enrollmentId: enrollment.id,
              questionId: r.questionId,
              optionIds: r.optionIds,
              correct: r.correct,
              answeredAt: now,
            })),
          );
          audit({
            type: "review.answered",
            moduleId,
            details: {
              answered: graded.length,
              correct: graded.filter((r) => r.correct).length,
              // The exact choices, as the record of what the learner answered.
              answers: JSON.stringify(
                graded.map((r) => ({ q: r.questionId, o: r.optionIds, c: r.correct })),
              ),
            },
          });
          return graded;
        },
      });
      return {
        results: results.map((r) => ({
          questionId: r.questionId,
          correct: r.correct,
          feedback: r.feedback,
        })),
      };
    },
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
