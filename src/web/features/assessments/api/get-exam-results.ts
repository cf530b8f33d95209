import { type ExamResults, examResultsSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const examResultsQueryKey = (courseId: string) =>
  ["/api/courses", courseId, "exam", "results"] as const;

/** The CSV download of one view of the results, for a plain link. */
export const examResultsCsvUrl = (courseId: string, view: "attempts" | "questions" | "summary") =>
  `/api/courses/${encodeURIComponent(courseId)}/exam/results?format=csv&view=${view}`;

/** GET /api/courses/:id/exam/results: summary, every learner's attempts, item analysis. */
async function getExamResults(courseId: string): Promise<ExamResults> {
  return apiJson(
    examResultsSchema,
    "GET",
    `/api/courses/${encodeURIComponent(courseId)}/exam/results`,
  );
}

const getExamResultsQueryOptions = (courseId: string) =>
  queryOptions({
    queryKey: examResultsQueryKey(courseId),
    queryFn: () => getExamResults(courseId),
  });

export function useExamResults(courseId: string) {
  return useQuery(getExamResultsQueryOptions(courseId));
}
