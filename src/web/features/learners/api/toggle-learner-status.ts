import { type LearnerSummary, restrictResponseSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { apiJson } from "../../../lib/api-client";
import { patchCachedLearner } from "./get-learners";
import { invalidateLearnerData } from "./invalidate-learner-data";

export type ToggleLearnerStatusResult = z.infer<typeof restrictResponseSchema>;

/** PATCH /api/users/learners/:id/restrict: active ⇄ restricted; answers the message to show. */
async function toggleLearnerStatus(learnerId: string): Promise<ToggleLearnerStatusResult> {
  return apiJson(
    restrictResponseSchema,
    "PATCH",
    `/api/users/learners/${encodeURIComponent(learnerId)}/restrict`,
  );
}

export function useToggleLearnerStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (learner: Pick<LearnerSummary, "id">) => toggleLearnerStatus(learner.id),
    onSuccess: ({ status }, learner) => {
      patchCachedLearner(queryClient, learner.id, (item) => ({ ...item, status }));
      return invalidateLearnerData(queryClient, { lists: false });
    },
  });
}
