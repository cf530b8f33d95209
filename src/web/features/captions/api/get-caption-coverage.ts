import { type CaptionCoverage, captionCoverageSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const captionCoverageQueryKey = (courseId: string) =>
  ["/api/courses", courseId, "captions"] as const;

/** GET /api/courses/:id/captions (admin): each module's caption languages and transcript. */
async function getCaptionCoverage(courseId: string): Promise<CaptionCoverage> {
  return apiJson(
    captionCoverageSchema,
    "GET",
    `/api/courses/${encodeURIComponent(courseId)}/captions`,
  );
}

/**
 * `moduleIds` is the course's module list as the page shows it: a module added or deleted
 * since the coverage was read makes it read again.
 */
const getCaptionCoverageQueryOptions = (courseId: string, moduleIds: readonly string[]) =>
  queryOptions({
    queryKey: [...captionCoverageQueryKey(courseId), moduleIds.join(",")],
    queryFn: () => getCaptionCoverage(courseId),
  });

export function useCaptionCoverage(courseId: string, moduleIds: readonly string[]) {
  return useQuery(getCaptionCoverageQueryOptions(courseId, moduleIds));
}
