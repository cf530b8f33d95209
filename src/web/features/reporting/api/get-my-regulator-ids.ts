import { type MyRegulatorIds, myRegulatorIdsSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

const myRegulatorIdsQueryKey = (courseId?: string) =>
  ["/api/me/regulator-ids", courseId ?? null] as const;

/** GET /api/me/regulator-ids: the learner's identifiers and whom the course reports to. */
async function getMyRegulatorIds(courseId?: string): Promise<MyRegulatorIds> {
  const query = courseId ? `?courseId=${encodeURIComponent(courseId)}` : "";
  return apiJson(myRegulatorIdsSchema, "GET", `/api/me/regulator-ids${query}`);
}

const getMyRegulatorIdsQueryOptions = (courseId?: string) =>
  queryOptions({
    queryKey: myRegulatorIdsQueryKey(courseId),
    queryFn: () => getMyRegulatorIds(courseId),
  });

export function useMyRegulatorIds(courseId?: string) {
  return useQuery(getMyRegulatorIdsQueryOptions(courseId));
}
