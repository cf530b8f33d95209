import { type CourseWatch, courseWatchSchema } from "@contract";
import { queryOptions } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

/** GET /api/admin/watch/:userId/:courseId: a learner's watching per module. */
async function getLearnerWatch(userId: string, courseId: string): Promise<CourseWatch> {
  return apiJson(
    courseWatchSchema,
    "GET",
    `/api/admin/watch/${encodeURIComponent(userId)}/${encodeURIComponent(courseId)}`,
  );
}

export const getLearnerWatchQueryOptions = (userId: string, courseId: string) =>
  queryOptions({
    queryKey: ["/api/admin/watch", userId, courseId] as const,
    queryFn: () => getLearnerWatch(userId, courseId),
  });
