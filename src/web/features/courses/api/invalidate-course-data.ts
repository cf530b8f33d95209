import type { QueryClient } from "@tanstack/react-query";
import { coursesQueryKey } from "./get-courses";

/**
 * After a course changes, the lists and figures that count courses, modules or
 * enrollments are stale: the courses themselves, the admin stats, the reports and the
 * learners' enrolled-course badges (a deleted course takes its enrollments with it).
 */
export function invalidateCourseData(
  queryClient: QueryClient,
  { learners = false }: { learners?: boolean } = {},
) {
  const keys: string[] = [coursesQueryKey[0], "/api/admin/stats", "/api/admin/reports"];
  if (learners) keys.push("/api/users/learners");
  return Promise.all(keys.map((key) => queryClient.invalidateQueries({ queryKey: [key] })));
}
