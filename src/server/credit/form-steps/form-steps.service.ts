import {
  COMPLETION_STEP_LABELS,
  checkFormAnswers,
  FORM_STEP_KEYS,
  FORM_STEPS,
  type FormStep,
  type FormStepAnswersBody,
  type FormStepAnswersList,
  type FormStepKey,
  type FormStepSettingsBody,
} from "../../../contract";
import type { Database } from "../../db/client";
import { defineStep } from "../../learning";
import { withIds } from "../../lib/form-items";
import { retainUntil } from "../activity/activity.read-model";
import type { ActivityService, Viewer } from "../activity/activity.service";
import { alreadyAnswered, badAnswers, notAsked } from "./form-steps.errors";
import { createFormStepsRepository } from "./form-steps.repository";
import { type CourseFormStepRow, formStepAnswers } from "./form-steps.table";

/** A course's settings of one form step; undefined while the course has the defaults. */
type FormStepSettings = CourseFormStepRow | undefined;

const itemsOf = (key: FormStepKey, settings: FormStepSettings) =>
  settings?.items ?? [...FORM_STEPS[key].defaultItems];

/**
 * Every form step of the contract as a step of completion: required when the course asks for
 * it, done when the learner answered. A step declared in FORM_STEPS is listed here by itself.
 */
export const formSteps = FORM_STEP_KEYS.map((key) =>
  defineStep<FormStepSettings>({
    key,
    load: (db, courseId) => createFormStepsRepository(db).settingsOf(courseId, key),
    record: {
      isRequired: (settings) => settings?.required ?? false,
      async doneAt(tx, enrollment) {
        return (
          (await createFormStepsRepository(tx).answerOf(enrollment.id, key))?.answeredAt ?? null
        );
      },
    },
  }),
);
const stepOf = (key: FormStepKey) => formSteps[FORM_STEP_KEYS.indexOf(key)]!;

export interface FormStepsServiceDeps {
  db: Database;
  /** The activity feature: who may read, the one edit of settings, the unit of a credit step. */
  activity: Pick<ActivityService, "read" | "edit" | "takeCreditStep">;
  /** The clock of the credit records; tests pass one they move by hand. */
  now?: () => Date;
}

/**
 * The course's form steps: each one's form and whether the course asks for it
 * (administrators), a learner's answers through the unit of work, and every learner's
 * answers for the provider's follow-up.
 */
export function createFormStepsService(deps: FormStepsServiceDeps) {
  const { db, activity } = deps;
  const repo = createFormStepsRepository(db);
  const now = deps.now ?? (() => new Date());

  return {
    async read(viewer: Viewer, courseId: string, key: FormStepKey): Promise<FormStep> {
      const { enrollment } = await activity.read(viewer, courseId);
      const settings = await repo.settingsOf(courseId, key);
      const answer = enrollment ? await repo.answerOf(enrollment.id, key) : undefined;
      return {
        key,
        required: settings?.required ?? false,
        items: answer?.items ?? itemsOf(key, settings),
        answers: answer?.answers ?? null,
        answeredAt: answer?.answeredAt.toISOString() ?? null,
      };
    },

    async save(courseId: string, key: FormStepKey, body: FormStepSettingsBody, actor: Viewer) {
      const row = await activity.edit(
        courseId,
        { actor, type: "course.step_form_updated", details: { step: key } },
        ["required", "items"],
        async (tx) => {
          const txRepo = createFormStepsRepository(tx);
          const items = withIds(body.items, itemsOf(key, await txRepo.settingsOf(courseId, key)));
          // The step's own form, sent back unchanged, stays the default: it follows the step.
          const isDefault = JSON.stringify(items) === JSON.stringify(FORM_STEPS[key].defaultItems);
          return txRepo.editSettings(courseId, key, {
            required: body.required,
            items: isDefault ? null : items,
          });
        },
      );
      return {
        key,
        required: row.required,
        items: itemsOf(key, row),
        answers: null,
        answeredAt: null,
      };
    },

    /** Records the learner's answers, once, with the form as they saw it. */
    async answer(userId: string, courseId: string, key: FormStepKey, body: FormStepAnswersBody) {
      const step = stepOf(key);
      return activity.takeCreditStep({
        userId,
        courseId,
        step,
        async write(unit) {
          const settings = unit.settingsOf(step);
          if (!settings?.required) throw notAsked(key);
          await unit.assertInOrder();
          const txRepo = createFormStepsRepository(unit.tx);
          if (await txRepo.answerOf(unit.enrollment.id, key)) throw alreadyAnswered(key);
          const items = itemsOf(key, settings);
          const checked = checkFormAnswers(
            items,
            body.answers,
            `the ${COMPLETION_STEP_LABELS[key].toLowerCase()}`,
          );
          if ("problem" in checked) throw badAnswers(checked.problem);
          const at = now();
          unit.insertLater(formStepAnswers, {
            ...unit.identity,
            step: key,
            items,
            answers: checked.kept,
            answeredAt: at,
            retainUntil: retainUntil(unit.activity, at),
          });
          // Declared with the step in the contract's COMPLETION_STEP_EVENTS.
          unit.audit({ type: `${key}.answered` });
        },
      });
    },

    /**
     * Every learner's answers to the course's step: the current form's items first, then
     * items only earlier answers hold (removed since), so the provider's list loses no answer.
     */
    async answers(
      viewer: Viewer,
      courseId: string,
      key: FormStepKey,
    ): Promise<FormStepAnswersList> {
      await activity.read(viewer, courseId);
      const settings = await repo.settingsOf(courseId, key);
      const rows = await repo.answersOf(courseId, key);
      const items = new Map(itemsOf(key, settings).map((item) => [item.id, item]));
      for (const row of rows) {
        for (const item of row.items) if (!items.has(item.id)) items.set(item.id, item);
      }
      return {
        key,
        items: [...items.values()],
        answers: rows.map((r) => ({
          learnerName: r.learnerName,
          learnerEmail: r.learnerEmail,
          answeredAt: r.answeredAt.toISOString(),
          answers: r.answers,
        })),
      };
    },
  };
}

export type FormStepsService = ReturnType<typeof createFormStepsService>;
