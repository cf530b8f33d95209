import { type ExamStatus, examStatusSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const examStatusQueryKey = (courseId: string) => ["/api/courses", courseId, "exam"] as const;

/**
 * GET /api/courses/:id/exam: where the learner stands with the final exam, with the attempt
 * in progress (so a reload resumes it) and the past attempts.
 */
async function getExamStatus(courseId: string): Promise<ExamStatus> {
  return apiJson(examStatusSchema, "GET", `/api/courses/${encodeURIComponent(courseId)}/exam`);
}

const getExamStatusQueryOptions = (courseId: string) =>
  queryOptions({
    queryKey: examStatusQueryKey(courseId),
    queryFn: () => getExamStatus(courseId),
  });

export function useExamStatus(courseId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...getExamStatusQueryOptions(courseId), enabled: options.enabled });
}
