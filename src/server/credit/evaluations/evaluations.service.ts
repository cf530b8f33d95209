import type { EvaluationAnswersBody, EvaluationFormBody } from "../../../contract";
import type { Database } from "../../db/client";
import { defineStep } from "../../learning";
import { type ActivitySettings, loadActivity, retainUntil } from "../activity/activity.read-model";
import type { ActivityService, Viewer } from "../activity/activity.service";
import { checkAnswers, evaluationItemsOf, withIds } from "./evaluation-form";
import { evaluationDone } from "./evaluations.errors";
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

export interface EvaluationsServiceDeps {
  db: Database;
  /** The activity feature: the row that holds the form, and the unit of a credit step. */
  activity: Pick<ActivityService, "read" | "save" | "takeCreditStep">;
  /** The clock of the credit records; tests pass one they move by hand. */
  now?: () => Date;
}

/**
 * The course's evaluation: the administrator's form, the learner's submission recorded on
 * the audit chain, and the answers reported apart from who gave them.
 */
export function createEvaluationsService(deps: EvaluationsServiceDeps) {
  const { db, activity } = deps;
  const repo = createEvaluationsRepository(db);
  const now = deps.now ?? (() => new Date());

  return {
    async evaluationForm(viewer: Viewer, courseId: string) {
      const { enrollment, activity: row } = await activity.read(viewer, courseId);
      const submitted = enrollment ? Boolean(await repo.submissionOf(enrollment.id)) : false;
      return { items: evaluationItemsOf(row), submitted };
    },

    async saveEvaluationForm(courseId: string, body: EvaluationFormBody, actor: Viewer) {
      const row = await activity.save(
        courseId,
        { evaluationItems: withIds(body.items) },
        { actor, type: "evaluation.form_updated" },
      );
      return { items: evaluationItemsOf(row), submitted: false };
    },

    /**
     * Records that the learner evaluated the course and, apart from it, the answers: the
     * response row holds no learner, enrollment or time finer than the month.
     */
    async submitEvaluation(userId: string, courseId: string, body: EvaluationAnswersBody) {
      return activity.takeCreditStep({
        userId,
        courseId,
        step: evaluationStep,
        async write(unit) {
          const { tx, enrollment, identity, activity: row } = unit;
          const txRepo = createEvaluationsRepository(tx);
          await unit.assertInOrder();
          if (await txRepo.submissionOf(enrollment.id)) throw evaluationDone();
          const items = evaluationItemsOf(row);
          const answers = checkAnswers(items, body.answers);
          const at = now();
          const keepUntil = retainUntil(row, at);
          await txRepo.insertSubmission({ ...identity, submittedAt: at, retainUntil: keepUntil });
          const month = `${at.toISOString().slice(0, 7)}-01`;
          // Rounded to the month too, so the retention date cannot tie a response to a day.
          const responseKeptUntil = new Date(`${keepUntil.toISOString().slice(0, 7)}-01T00:00:00Z`);
          responseKeptUntil.setUTCMonth(responseKeptUntil.getUTCMonth() + 1);
          await txRepo.insertResponse({
            courseId,
            courseTitle: unit.context.course.title,
            items,
            answers,
            month,
            retainUntil: responseKeptUntil,
          });
          unit.audit({ type: "evaluation.submitted" });
        },
      });
    },

    /** Evaluation answers of a course, apart from who gave them, with the current form. */
    async responses(viewer: Viewer, courseId: string) {
      const { activity: row } = await activity.read(viewer, courseId);
      return { items: evaluationItemsOf(row), responses: await repo.responsesOf(courseId) };
    },
  };
}

export type EvaluationsService = ReturnType<typeof createEvaluationsService>;
