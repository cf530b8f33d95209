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

/** How often the status is read again: while a unit is open, until the module is settled. */
const LIVE_REFRESH_MS = 3000;

/**
 * When to read the status again: every few seconds while a unit is open (`live`), never
 * once the module is complete and every unit satisfied, when no standing that counts can
 * change any more.
 */
export function statusRefresh(live: boolean, status: Cmi5Status | undefined): number | false {
  const settled = status?.moduleCompleted === true && status.aus.every((au) => au.satisfied);
  return live && !settled ? LIVE_REFRESH_MS : false;
}

/**
 * The module's AUs and the learner's standing in each. While an AU is open it reports to
 * the portal from its own frame, so the status is read again every few seconds then, until
 * the module is settled: a finished unit opened again for review is read again when it
 * closes (cmi5-player.tsx).
 */
export function useCmi5Status(courseId: string, moduleId: string, options: { live: boolean }) {
  return useQuery(
    queryOptions({
      queryKey: cmi5StatusQueryKey(courseId, moduleId),
      queryFn: () => getCmi5Status(courseId, moduleId),
      refetchInterval: (query) => statusRefresh(options.live, query.state.data),
    }),
  );
}
