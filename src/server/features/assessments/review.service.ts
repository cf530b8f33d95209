import { type Answer, isModuleUnlocked, type Review, type ReviewResult } from "../../../contract";
import type { Database, Executor } from "../../db/client";
import type { AuditService } from "../audit/audit.service";
import type { CompletionRequirement, ModuleRequirement } from "../enrollments/completion-steps";
import type { EnrollmentRow } from "../enrollments/enrollments.table";
import { moduleLocked, moduleNotInCourse, notEnrolled, reviewFirst } from "./assessments.errors";
import { createAssessmentsRepository } from "./assessments.repository";
import type { QuestionRow } from "./assessments.table";
import { checkedAnswers, isCorrect, presented } from "./grading";
import { settingsOrDefault } from "./questions.service";

export interface ReviewServiceDeps {
  db: Database;
  audit: AuditService;
  courses: { moduleIds(courseId: string): Promise<string[]> };
  enrollments: {
    findEnrollment(
      userId: string,
      courseId: string,
    ): Promise<{ id: string; completed: string[] } | null>;
  };
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
  const { db, audit } = deps;
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

    async answer(
      userId: string,
      courseId: string,
      moduleId: string,
      answers: Answer[],
    ): Promise<ReviewResult> {
      const enrollment = await openModule(userId, courseId, moduleId);
      const questions = await repo.questionsOfModule(courseId, moduleId);
      const chosen = checkedAnswers(questions, answers);
      const byId = new Map(questions.map((q) => [q.id, q]));
      const results = [...chosen].map(([questionId, optionIds]) => {
        const question = byId.get(questionId)!;
        return {
          questionId,
          optionIds,
          correct: isCorrect(question.options, optionIds),
          feedback: feedbackFor(question, optionIds),
        };
      });
      const now = new Date();
      await db.transaction(async (tx) => {
        await createAssessmentsRepository(tx).saveReviewAnswers(
          results.map((r) => ({
            enrollmentId: enrollment.id,
            questionId: r.questionId,
            optionIds: r.optionIds,
            correct: r.correct,
            answeredAt: now,
          })),
        );
        await audit.append(tx, {
          type: "review.answered",
          actor: { id: userId, role: "learner" },
          learnerId: userId,
          courseId,
          moduleId,
          details: {
            enrollmentId: enrollment.id,
            answered: results.length,
            correct: results.filter((r) => r.correct).length,
            // The exact choices, as the record of what the learner answered.
            answers: JSON.stringify(
              results.map((r) => ({ q: r.questionId, o: r.optionIds, c: r.correct })),
            ),
          },
        });
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

/**
 * 'Mark as Complete' waits until every review question of the module was answered once,
 * right or wrong, unless the course's settings say review is optional.
 */
export const reviewRequirement: ModuleRequirement = {
  async prepare(input) {
    return async (tx: Executor, enrollment: EnrollmentRow) => {
      const txRepo = createAssessmentsRepository(tx);
      const questions = await txRepo.questionsOfModule(input.courseId, input.moduleId);
      if (!questions.length) return;
      if (!settingsOrDefault(await txRepo.settingsOf(input.courseId)).reviewRequired) return;
      const answered = await txRepo.reviewAnswersOf(
        enrollment.id,
        questions.map((q) => q.id),
      );
      if (answered.length < questions.length) throw reviewFirst();
    };
  },
};

/** The course's review questions that count: every one, when the course requires review. */
async function requiredReviewQuestions(tx: Executor, courseId: string) {
  const txRepo = createAssessmentsRepository(tx);
  if (!settingsOrDefault(await txRepo.settingsOf(courseId)).reviewRequired) return [];
  return (await txRepo.questionsOf(courseId)).filter((q) => q.pool === "review");
}

/**
 * The review step of the completion order: done once every review question of the course
 * has been answered (each module's own questions already gate its completion).
 */
export const reviewStep: CompletionRequirement = {
  key: "review",
  async isRequired(tx, courseId) {
    return (await requiredReviewQuestions(tx, courseId)).length > 0;
  },
  async doneAt(tx, enrollment) {
    const questions = await requiredReviewQuestions(tx, enrollment.courseId);
    const answers = await createAssessmentsRepository(tx).reviewAnswersOf(
      enrollment.id,
      questions.map((q) => q.id),
    );
    if (!questions.length || answers.length < questions.length) return null;
    return new Date(Math.max(...answers.map((a) => a.answeredAt.getTime())));
  },
};
