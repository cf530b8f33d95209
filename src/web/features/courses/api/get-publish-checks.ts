import { type CoursePublishCheck, coursePublishChecksSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { courseQueryKey } from "./get-course";

/** Under the course's key: every change to the course or its modules reads it again. */
const publishChecksQueryKey = (courseId: string) =>
  [...courseQueryKey(courseId), "publish-checks"] as const;

/**
 * GET /api/courses/:id/publish-checks: what publishing should make the administrator aware
 * of (a module's stated length far from its video's; credit earned with manual completion).
 */
async function getPublishChecks(courseId: string): Promise<CoursePublishCheck[]> {
  const answer = await apiJson(
    coursePublishChecksSchema,
    "GET",
    `/api/courses/${encodeURIComponent(courseId)}/publish-checks`,
  );
  return answer.checks;
}

const getPublishChecksQueryOptions = (courseId: string) =>
  queryOptions({
    queryKey: publishChecksQueryKey(courseId),
    queryFn: () => getPublishChecks(courseId),
  });

export function usePublishChecks(courseId: string) {
  return useQuery(getPublishChecksQueryOptions(courseId));
}
