import type { LearnerSummary } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { getLearnerSummary, patchCachedLearner } from "./get-learners";
import { invalidateLearnerData } from "./invalidate-learner-data";

/** DELETE /api/enrollments/:enrollmentId: takes a learner out of one course. */
async function removeEnrollment(enrollmentId: string): Promise<void> {
  await apiRequest("DELETE", `/api/enrollments/${encodeURIComponent(enrollmentId)}`);
}

export function useRemoveEnrollment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { learner: Pick<LearnerSummary, "id" | "email">; enrollmentId: string }) =>
      removeEnrollment(input.enrollmentId),
    onSuccess: async (_data, { learner }) => {
      const fresh = await getLearnerSummary(learner).catch(() => undefined);
      if (fresh) patchCachedLearner(queryClient, learner.id, () => fresh);
      await invalidateLearnerData(queryClient, { lists: !fresh });
    },
  });
}
