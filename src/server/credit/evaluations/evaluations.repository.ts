import { asc, eq } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { courseSettingsOf } from "../../db/course-settings";
import { courseEvaluations, evaluationResponses, evaluationSubmissions } from "./evaluations.table";

/** The courses' evaluation settings, the submissions and the anonymous answers; every function runs on the executor it is given. */
export function createEvaluationsRepository(db: Executor) {
  const settings = courseSettingsOf(db, courseEvaluations);
  return {
    /** Whether the course asks for its evaluation, and its form (undefined: the defaults). */
    settingsOf: settings.of,
    /** Saves the values named, in the caller's transaction: the row as it was and is now. */
    editSettings: settings.edit,

    async submissionOf(enrollmentId: string) {
      const [row] = await db
        .select()
        .from(evaluationSubmissions)
        .where(eq(evaluationSubmissions.enrollmentId, enrollmentId));
      return row;
    },

    async insertSubmission(values: typeof evaluationSubmissions.$inferInsert) {
      await db.insert(evaluationSubmissions).values(values);
    },

    async insertResponse(values: typeof evaluationResponses.$inferInsert) {
      await db.insert(evaluationResponses).values(values);
    },

    async responsesOf(courseId: string) {
      return db
        .select({ items: evaluationResponses.items, answers: evaluationResponses.answers })
        .from(evaluationResponses)
        .where(eq(evaluationResponses.courseId, courseId))
        .orderBy(asc(evaluationResponses.id));
    },
  };
}
