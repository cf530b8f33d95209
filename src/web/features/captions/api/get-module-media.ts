import { type ModuleMedia, moduleMediaSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const moduleMediaQueryKey = (courseId: string, moduleId: string) =>
  ["/api/courses", courseId, "modules", moduleId, "media"] as const;

/** GET /api/courses/:id/modules/:moduleId/media: the module's caption tracks and transcript. */
async function getModuleMedia(courseId: string, moduleId: string): Promise<ModuleMedia> {
  return apiJson(
    moduleMediaSchema,
    "GET",
    `/api/courses/${encodeURIComponent(courseId)}/modules/${encodeURIComponent(moduleId)}/media`,
  );
}

const getModuleMediaQueryOptions = (courseId: string, moduleId: string) =>
  queryOptions({
    queryKey: moduleMediaQueryKey(courseId, moduleId),
    queryFn: () => getModuleMedia(courseId, moduleId),
  });

export function useModuleMedia(courseId: string, moduleId: string) {
  return useQuery(getModuleMediaQueryOptions(courseId, moduleId));
}
