import { type EvaluationResults, evaluationResultsSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const evaluationResultsQueryKey = (courseId: string) =>
  ["/api/courses", courseId, "evaluation", "results"] as const;

/** The CSV download of the same results, for a plain link. */
export const evaluationResultsCsvUrl = (courseId: string) =>
  `/api/courses/${encodeURIComponent(courseId)}/evaluation/results?format=csv`;

/** GET /api/courses/:id/evaluation/results: each item's ratings or comments, never by learner. */
async function getEvaluationResults(courseId: string): Promise<EvaluationResults> {
  return apiJson(
    evaluationResultsSchema,
    "GET",
    `/api/courses/${encodeURIComponent(courseId)}/evaluation/results`,
  );
}

const getEvaluationResultsQueryOptions = (courseId: string) =>
  queryOptions({
    queryKey: evaluationResultsQueryKey(courseId),
    queryFn: () => getEvaluationResults(courseId),
  });

export function useEvaluationResults(courseId: string) {
  return useQuery(getEvaluationResultsQueryOptions(courseId));
}
