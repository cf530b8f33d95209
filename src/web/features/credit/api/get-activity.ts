import { type Activity, activitySchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const activityQueryKey = (courseId: string) =>
  ["/api/courses", courseId, "activity"] as const;

/**
 * GET /api/courses/:id/activity: what a learner reads before starting (objectives, faculty,
 * statements, dates) and where they stand with it (`standing`).
 */
async function getActivity(courseId: string): Promise<Activity> {
  return apiJson(activitySchema, "GET", `/api/courses/${encodeURIComponent(courseId)}/activity`);
}

const getActivityQueryOptions = (courseId: string) =>
  queryOptions({
    queryKey: activityQueryKey(courseId),
    queryFn: () => getActivity(courseId),
  });

export function useActivity(courseId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...getActivityQueryOptions(courseId), enabled: options.enabled });
}
