import { type EnrollmentWithRelations, enrollmentWithRelationsSchema } from "@contract";
import { apiJson, type Idempotent } from "../../../lib/api-client";

/** POST /api/enrollments: one course for one learner, starting at 0% (SPEC section 7). */
export async function enrollLearner(
  input: Idempotent<{ userId: string; courseId: string }>,
): Promise<EnrollmentWithRelations> {
  return apiJson(
    enrollmentWithRelationsSchema,
    "POST",
    "/api/enrollments",
    {
      userId: input.userId,
      courseId: input.courseId,
      progress: 0,
      completedModules: [],
      isCompleted: false,
    },
    { idempotencyKey: input.idempotencyKey },
  );
}
