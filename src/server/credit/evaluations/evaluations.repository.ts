import { asc, eq } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { evaluationResponses, evaluationSubmissions } from "./evaluations.table";

/** The evaluation's submissions and its anonymous answers; every function runs on the executor it is given. */
export function createEvaluationsRepository(db: Executor) {
  return {
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
