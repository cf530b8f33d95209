import { type CourseWatch, courseWatchSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const courseWatchQueryKey = (courseId: string) => ["/api/progress/watch", courseId] as const;

/** GET /api/progress/watch/:courseId: the learner's position and watching per module. */
async function getCourseWatch(courseId: string): Promise<CourseWatch> {
  return apiJson(courseWatchSchema, "GET", `/api/progress/watch/${encodeURIComponent(courseId)}`);
}

const getCourseWatchQueryOptions = (courseId: string) =>
  queryOptions({
    queryKey: courseWatchQueryKey(courseId),
    queryFn: () => getCourseWatch(courseId),
    // Heartbeats keep this up to date; refetching would move the resume point under the
    // learner's feet.
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useCourseWatch(courseId: string) {
  return useQuery(getCourseWatchQueryOptions(courseId));
}
