import { type EvaluationForm, evaluationFormSchema } from "@contract";
import { queryOptions } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const evaluationQueryKey = (courseId: string) =>
  ["/api/courses", courseId, "evaluation"] as const;

/** GET /api/courses/:id/evaluation: the course's evaluation items and whether the learner sent theirs. */
async function getEvaluation(courseId: string): Promise<EvaluationForm> {
  return apiJson(
    evaluationFormSchema,
    "GET",
    `/api/courses/${encodeURIComponent(courseId)}/evaluation`,
  );
}

export const getEvaluationQueryOptions = (courseId: string) =>
  queryOptions({
    queryKey: evaluationQueryKey(courseId),
    queryFn: () => getEvaluation(courseId),
  });
