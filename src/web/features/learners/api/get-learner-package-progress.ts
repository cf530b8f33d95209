import { type LearnerPackageProgress, learnerPackageProgressSchema } from "@contract";
import { queryOptions } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

/** GET /api/admin/package-progress/:userId/:courseId: a learner's package modules of a course. */
async function getLearnerPackageProgress(
  userId: string,
  courseId: string,
): Promise<LearnerPackageProgress> {
  return apiJson(
    learnerPackageProgressSchema,
    "GET",
    `/api/admin/package-progress/${encodeURIComponent(userId)}/${encodeURIComponent(courseId)}`,
  );
}

export const getLearnerPackageProgressQueryOptions = (userId: string, courseId: string) =>
  queryOptions({
    queryKey: ["/api/admin/package-progress", userId, courseId] as const,
    queryFn: () => getLearnerPackageProgress(userId, courseId),
  });
