import { type Answer, type SubmitResult, submitResultSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { completionQueryKey } from "./get-completion";
import { examStatusQueryKey } from "./get-exam-status";

type SubmitExamAttemptInput = { courseId: string; attemptId: string; answers: Answer[] };

/** POST /api/exam-attempts/:id/submit: the server grades the attempt once. */
async function submitExamAttempt({
  attemptId,
  answers,
}: SubmitExamAttemptInput): Promise<SubmitResult> {
  return apiJson(
    submitResultSchema,
    "POST",
    `/api/exam-attempts/${encodeURIComponent(attemptId)}/submit`,
    { answers },
  );
}

export function useSubmitExamAttempt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitExamAttempt,
    // Also on a refusal: "already submitted" means another tab graded it first.
    onSettled: (_result, _error, { courseId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: examStatusQueryKey(courseId) }),
        queryClient.invalidateQueries({ queryKey: completionQueryKey(courseId) }),
      ]),
  });
}
