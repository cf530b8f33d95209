import { type SetupChecklist, setupChecklistSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const setupChecklistQueryKey = ["/api/admin/setup-checklist"] as const;

/** GET /api/admin/setup-checklist: which first steps of the portal are done. */
async function getSetupChecklist(): Promise<SetupChecklist> {
  return apiJson(setupChecklistSchema, "GET", "/api/admin/setup-checklist");
}

/**
 * Read afresh each time the dashboard opens: the steps are done on other pages (Settings,
 * the courses), whose saves do not know about this list.
 */
const getSetupChecklistQueryOptions = () =>
  queryOptions({ queryKey: setupChecklistQueryKey, queryFn: getSetupChecklist, staleTime: 0 });

export function useSetupChecklist() {
  return useQuery(getSetupChecklistQueryOptions());
}
