import { type Completion, completionSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const completionQueryKey = (courseId: string) =>
  ["/api/courses", courseId, "completion"] as const;

/** GET /api/courses/:id/completion: the course's steps in order and the next one to do. */
async function getCompletion(courseId: string): Promise<Completion> {
  return apiJson(
    completionSchema,
    "GET",
    `/api/courses/${encodeURIComponent(courseId)}/completion`,
  );
}

const getCompletionQueryOptions = (courseId: string) =>
  queryOptions({
    queryKey: completionQueryKey(courseId),
    queryFn: () => getCompletion(courseId),
  });

export function useCompletion(courseId: string) {
  return useQuery(getCompletionQueryOptions(courseId));
}
