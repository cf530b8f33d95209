import type { EvaluationAnswersBody, EvaluationFormBody } from "../../../contract";
import type { Database, Executor } from "../../db/client";
import { defineStep } from "../../learning";
import { withIds } from "../../lib/form-items";
import { retainUntil } from "../activity/activity.read-model";
import type { ActivityService, Viewer } from "../activity/activity.service";
import { checkAnswers, evaluationItemsOf } from "./evaluation-form";
import { evaluationDone, evaluationNotAsked } from "./evaluations.errors";
import { type EvaluationSettings, loadEvaluationSettings } from "./evaluations.read-model";
import { createEvaluationsRepository } from "./evaluations.repository";
import type { CourseEvaluationRow } from "./evaluations.table";

/** The evaluation as a step of completion: required when the course asks for it. */
export const evaluationStep = defineStep<EvaluationSettings>({
  key: "evaluation",
  load: loadEvaluationSettings,
  record: {
    isRequired: (settings) => settings?.evaluationRequired ?? false,
    async doneAt(tx, enrollment) {
      return (
        (await createEvaluationsRepository(tx).submissionOf(enrollment.id))?.submittedAt ?? null
      );
    },
  },
});

export interface EvaluationsServiceDeps {
  db: Database;
  /** The activity feature: who may read, the one edit of settings, the unit of a credit step. */
  activity: Pick<ActivityService, "read" | "edit" | "takeCreditStep">;
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

  /** Saves the course's evaluation settings named, in `tx`: the row as it was and is now. */
  const saveIn = (
    tx: Executor,
    courseId: string,
    values: Partial<Pick<CourseEvaluationRow, "evaluationRequired" | "evaluationItems">>,
  ) => createEvaluationsRepository(tx).editSettings(courseId, values);

  return {
    async evaluationForm(viewer: Viewer, courseId: string) {
      const { enrollment } = await activity.read(viewer, courseId);
      const submitted = enrollment ? Boolean(await repo.submissionOf(enrollment.id)) : false;
      return { items: evaluationItemsOf(await repo.settingsOf(courseId)), submitted };
    },

    async saveEvaluationForm(courseId: string, body: EvaluationFormBody, actor: Viewer) {
      const row = await activity.edit(
        courseId,
        { actor, type: "evaluation.form_updated" },
        ["evaluationItems"],
        async (tx) => {
          const saved = evaluationItemsOf(
            await createEvaluationsRepository(tx).settingsOf(courseId),
          );
          return saveIn(tx, courseId, { evaluationItems: withIds(body.items, saved) });
        },
      );
      return { items: evaluationItemsOf(row), submitted: false };
    },

    /** Saves whether the course asks for its evaluation, in the activity page's transaction. */
    saveIn,

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
          // A course that asks no evaluation takes none: no record, and no answer in its report.
          if (!evaluationStep.record!.isRequired(unit.settingsOf(evaluationStep))) {
            throw evaluationNotAsked();
          }
          await unit.assertInOrder();
          if (await txRepo.submissionOf(enrollment.id)) throw evaluationDone();
          const items = evaluationItemsOf(unit.settingsOf(evaluationStep));
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
      await activity.read(viewer, courseId);
      return {
        items: evaluationItemsOf(await repo.settingsOf(courseId)),
        responses: await repo.responsesOf(courseId),
      };
    },
  };
}

export type EvaluationsService = ReturnType<typeof createEvaluationsService>;
