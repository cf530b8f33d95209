import type { Executor } from "../../db/client";
import { createAssessmentsRepository } from "./assessments.repository";

/**
 * Whether the learner sat the final exam and failed it: attempts were graded, none passed,
 * and none is in progress. Admin views say so rather than "In progress".
 */
export async function examFailedOf(db: Executor, enrollmentId: string): Promise<boolean> {
  const tally = await createAssessmentsRepository(db).attemptTally(enrollmentId);
  return tally.used > 0 && !tally.passed && tally.openId === null;
}
