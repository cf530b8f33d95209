import { type Completion, completionSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

/**
 * The same key the final exam uses for this answer, so a graded exam, an acknowledgement or
 * an evaluation refreshes every checklist and next step on screen at once.
 */
export const courseCompletionQueryKey = (courseId: string) =>
  ["/api/courses", courseId, "completion"] as const;

/** GET /api/courses/:id/completion: the course's steps in order and the next one to do. */
async function getCourseCompletion(courseId: string): Promise<Completion> {
  return apiJson(
    completionSchema,
    "GET",
    `/api/courses/${encodeURIComponent(courseId)}/completion`,
  );
}

const getCourseCompletionQueryOptions = (courseId: string) =>
  queryOptions({
    queryKey: courseCompletionQueryKey(courseId),
    queryFn: () => getCourseCompletion(courseId),
  });

export function useCourseCompletion(courseId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...getCourseCompletionQueryOptions(courseId), enabled: options.enabled });
}
