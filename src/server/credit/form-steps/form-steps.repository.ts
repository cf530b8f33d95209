import { and, asc, eq } from "drizzle-orm";
import type { FormStepKey } from "../../../contract";
import type { Executor } from "../../db/client";
import { courseSettingsOf } from "../../db/course-settings";
import { courseFormSteps, formStepAnswers } from "./form-steps.table";

/** The courses' form-step settings and the learners' answers; every function runs on the executor it is given. */
export function createFormStepsRepository(db: Executor) {
  return {
    /** Whether the course asks for the step, and its form (undefined: the defaults). */
    settingsOf: (courseId: string, step: FormStepKey) =>
      courseSettingsOf(db, courseFormSteps, { step }).of(courseId),

    /** Saves the values on the locked row (made with the defaults when missing): the row as it was and is. */
    editSettings: (
      courseId: string,
      step: FormStepKey,
      values: Pick<typeof courseFormSteps.$inferInsert, "required" | "items">,
    ) => courseSettingsOf(db, courseFormSteps, { step }).edit(courseId, values),

    async answerOf(enrollmentId: string, step: FormStepKey) {
      const [row] = await db
        .select()
        .from(formStepAnswers)
        .where(and(eq(formStepAnswers.enrollmentId, enrollmentId), eq(formStepAnswers.step, step)));
      return row;
    },

    /** Every learner's answers to the course's step, in the order they were given. */
    async answersOf(courseId: string, step: FormStepKey) {
      return db
        .select()
        .from(formStepAnswers)
        .where(and(eq(formStepAnswers.courseId, courseId), eq(formStepAnswers.step, step)))
        .orderBy(asc(formStepAnswers.answeredAt), asc(formStepAnswers.id));
    },
  };
}
