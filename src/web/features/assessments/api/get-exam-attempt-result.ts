import { type AttemptResult, attemptResultSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

const examAttemptResultQueryKey = (attemptId: string) => ["/api/exam-attempts", attemptId] as const;

/** GET /api/exam-attempts/:id: a submitted attempt's result, to show it again later. */
async function getExamAttemptResult(attemptId: string): Promise<AttemptResult> {
  return apiJson(attemptResultSchema, "GET", `/api/exam-attempts/${encodeURIComponent(attemptId)}`);
}

const getExamAttemptResultQueryOptions = (attemptId: string) =>
  queryOptions({
    queryKey: examAttemptResultQueryKey(attemptId),
    queryFn: () => getExamAttemptResult(attemptId),
  });

export function useExamAttemptResult(attemptId: string) {
  return useQuery(getExamAttemptResultQueryOptions(attemptId));
}
