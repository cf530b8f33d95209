import { type Review, reviewSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const reviewQueryKey = (courseId: string, moduleId: string) =>
  ["/api/courses", courseId, "modules", moduleId, "review"] as const;

/**
 * GET /api/courses/:id/modules/:moduleId/review: the module's review questions without
 * their answers, and whether the learner has answered every one of them.
 */
async function getReview(courseId: string, moduleId: string): Promise<Review> {
  return apiJson(
    reviewSchema,
    "GET",
    `/api/courses/${encodeURIComponent(courseId)}/modules/${encodeURIComponent(moduleId)}/review`,
  );
}

const getReviewQueryOptions = (courseId: string, moduleId: string) =>
  queryOptions({
    queryKey: reviewQueryKey(courseId, moduleId),
    queryFn: () => getReview(courseId, moduleId),
  });

export function useReview(courseId: string, moduleId: string) {
  return useQuery(getReviewQueryOptions(courseId, moduleId));
}
