import {
  type EvaluationAnswersBody,
  type EvaluationForm,
  evaluationAnswersBodySchema,
} from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest, type Idempotent } from "../../../lib/api-client";
import { courseCompletionQueryKey } from "./get-course-completion";
import { evaluationQueryKey } from "./get-evaluation";

type SubmitEvaluationInput = Idempotent<{ courseId: string; body: EvaluationAnswersBody }>;

/** POST /api/courses/:id/evaluation: the learner's answers, once (201, no body). */
async function submitEvaluation({
  courseId,
  body,
  idempotencyKey,
}: SubmitEvaluationInput): Promise<void> {
  await apiRequest(
    "POST",
    `/api/courses/${encodeURIComponent(courseId)}/evaluation`,
    evaluationAnswersBodySchema.parse(body),
    { idempotencyKey },
  );
}

export function useSubmitEvaluation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitEvaluation,
    onSuccess: (_none, { courseId }) => {
      queryClient.setQueryData<EvaluationForm>(evaluationQueryKey(courseId), (form) =>
        form ? { ...form, submitted: true } : form,
      );
    },
    // Also on a refusal: "already submitted" means another tab sent it first.
    onSettled: (_none, _error, { courseId }) =>
      queryClient.invalidateQueries({ queryKey: courseCompletionQueryKey(courseId) }),
  });
}
