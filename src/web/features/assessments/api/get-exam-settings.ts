import { type ExamSettings, examSettingsSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const examSettingsQueryKey = (courseId: string) =>
  ["/api/courses", courseId, "exam-settings"] as const;

/**
 * GET /api/courses/:id/exam-settings: the exam's settings, the pools' sizes and the checks
 * publishing runs (blocking problems and accreditors' warnings).
 */
async function getExamSettings(courseId: string): Promise<ExamSettings> {
  return apiJson(
    examSettingsSchema,
    "GET",
    `/api/courses/${encodeURIComponent(courseId)}/exam-settings`,
  );
}

/**
 * `creditKey` names the course's credit settings, which the checks read: changing them on the
 * course page asks for fresh checks.
 */
const getExamSettingsQueryOptions = (courseId: string, creditKey: string) =>
  queryOptions({
    queryKey: [...examSettingsQueryKey(courseId), creditKey],
    queryFn: () => getExamSettings(courseId),
  });

export function useExamSettings(courseId: string, creditKey: string) {
  return useQuery(getExamSettingsQueryOptions(courseId, creditKey));
}
