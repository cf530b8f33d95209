import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { patchCachedLearner } from "./get-learners";
import { invalidateLearnerData } from "./invalidate-learner-data";

/** DELETE /api/users/learners/:id: the learner with their enrollments and sessions. */
async function deleteLearner(learnerId: string): Promise<void> {
  await apiRequest("DELETE", `/api/users/learners/${encodeURIComponent(learnerId)}`);
}

export function useDeleteLearner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLearner,
    onSuccess: (_data, learnerId) => {
      patchCachedLearner(queryClient, learnerId, () => null);
      return invalidateLearnerData(queryClient, { lists: false });
    },
  });
}
