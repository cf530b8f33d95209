import { type Attempt, attemptSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { examStatusQueryKey } from "./get-exam-status";

/**
 * POST /api/courses/:id/exam/attempts: a new attempt with freshly drawn questions (201), or
 * the attempt already in progress with its saved answers (200).
 */
async function startExamAttempt(courseId: string): Promise<Attempt> {
  return apiJson(
    attemptSchema,
    "POST",
    `/api/courses/${encodeURIComponent(courseId)}/exam/attempts`,
  );
}

export function useStartExamAttempt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startExamAttempt,
    // Attempts used and the attempt in progress changed; a refusal means the status is stale.
    onSettled: (_attempt, _error, courseId) =>
      queryClient.invalidateQueries({ queryKey: examStatusQueryKey(courseId) }),
  });
}
