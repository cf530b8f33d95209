import { type Answer, type ReviewResult, reviewResultSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { reviewQueryKey } from "./get-review";

type AnswerReviewInput = { courseId: string; moduleId: string; answers: Answer[] };

/** POST /api/courses/:id/modules/:moduleId/review: the server grades and gives feedback. */
async function answerReview({
  courseId,
  moduleId,
  answers,
}: AnswerReviewInput): Promise<ReviewResult> {
  return apiJson(
    reviewResultSchema,
    "POST",
    `/api/courses/${encodeURIComponent(courseId)}/modules/${encodeURIComponent(moduleId)}/review`,
    { answers },
  );
}

export function useAnswerReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: answerReview,
    // The review now counts as answered, which is what lets the module be completed.
    onSuccess: (_result, { courseId, moduleId }) =>
      queryClient.invalidateQueries({ queryKey: reviewQueryKey(courseId, moduleId) }),
  });
}
