import type { QueryClient } from "@tanstack/react-query";
import { learnersQueryKey } from "./get-learners";

/**
 * After learners or enrollments change, the admin figures are stale: stats, reports and
 * (with `lists`) every cached learners list. Lists patched in place pass `lists: false`
 * and are only marked stale, so a long scrolled list is not refetched page by page.
 */
export function invalidateLearnerData(
  queryClient: QueryClient,
  { lists = true }: { lists?: boolean } = {},
) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ["/api/admin/stats"] }),
    queryClient.invalidateQueries({ queryKey: ["/api/admin/reports"] }),
    queryClient.invalidateQueries({
      queryKey: learnersQueryKey,
      refetchType: lists ? "active" : "none",
    }),
  ]);
}
