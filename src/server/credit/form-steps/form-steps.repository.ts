import { and, asc, eq } from "drizzle-orm";
import type { FormStepKey } from "../../../contract";
import type { Executor } from "../../db/client";
import { courseFormSteps, formStepAnswers } from "./form-steps.table";

/** The courses' form-step settings and the learners' answers; every function runs on the executor it is given. */
export function createFormStepsRepository(db: Executor) {
  const ofStep = (courseId: string, step: FormStepKey) =>
    and(eq(courseFormSteps.courseId, courseId), eq(courseFormSteps.step, step));

  return {
    /** Whether the course asks for the step, and its form (undefined: the defaults). */
    async settingsOf(courseId: string, step: FormStepKey) {
      const [row] = await db.select().from(courseFormSteps).where(ofStep(courseId, step));
      return row;
    },

    /** Saves the values on the locked row (made with the defaults when missing): the row as it was and is. */
    async editSettings(
      courseId: string,
      step: FormStepKey,
      values: Pick<typeof courseFormSteps.$inferInsert, "required" | "items">,
    ) {
      await db.insert(courseFormSteps).values({ courseId, step }).onConflictDoNothing();
      const [before] = await db
        .select()
        .from(courseFormSteps)
        .where(ofStep(courseId, step))
        .for("update");
      const [after] = await db
        .update(courseFormSteps)
        .set({ ...values, updatedAt: new Date() })
        .where(ofStep(courseId, step))
        .returning();
      return { before: before!, after: after! };
    },

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
