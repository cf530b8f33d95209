import { type Cmi5Status, cmi5StatusSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const cmi5StatusQueryKey = (courseId: string, moduleId: string) =>
  ["/api/courses", courseId, "modules", moduleId, "cmi5"] as const;

/** GET /api/courses/:courseId/modules/:moduleId/cmi5: where each of the module's AUs stands. */
async function getCmi5Status(courseId: string, moduleId: string): Promise<Cmi5Status> {
  return apiJson(
    cmi5StatusSchema,
    "GET",
    `/api/courses/${encodeURIComponent(courseId)}/modules/${encodeURIComponent(moduleId)}/cmi5`,
  );
}

/**
 * The module's AUs and the learner's standing in each. While an AU is open it reports to
 * the portal from its own frame, so the status is read again every few seconds then.
 */
export function useCmi5Status(courseId: string, moduleId: string, options: { live: boolean }) {
  return useQuery(
    queryOptions({
      queryKey: cmi5StatusQueryKey(courseId, moduleId),
      queryFn: () => getCmi5Status(courseId, moduleId),
      refetchInterval: options.live ? 3000 : false,
    }),
  );
}
