import type { ModuleMedia } from "@contract";
import type { QueryClient } from "@tanstack/react-query";
import { captionCoverageQueryKey } from "./get-caption-coverage";
import { moduleMediaQueryKey } from "./get-module-media";

/** Keeps a write's answer as the module's media and has the course's coverage read again. */
export function setModuleMedia(
  queryClient: QueryClient,
  key: { courseId: string; moduleId: string },
  media: ModuleMedia,
) {
  queryClient.setQueryData(moduleMediaQueryKey(key.courseId, key.moduleId), media);
  return queryClient.invalidateQueries({ queryKey: captionCoverageQueryKey(key.courseId) });
}
