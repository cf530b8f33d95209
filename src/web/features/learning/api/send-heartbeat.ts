import {
  type CourseWatch,
  type HeartbeatBody,
  type ModuleWatch,
  moduleWatchSchema,
} from "@contract";
import type { QueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { courseWatchQueryKey } from "./get-course-watch";

/**
 * POST /api/progress/heartbeat: what played since the last one. `keepalive` lets the last
 * heartbeat of a closing page still reach the server.
 */
export async function sendHeartbeat(
  body: HeartbeatBody,
  options: { keepalive?: boolean } = {},
): Promise<ModuleWatch> {
  return apiJson(moduleWatchSchema, "POST", "/api/progress/heartbeat", body, {
    keepalive: options.keepalive,
  });
}

/** Writes a heartbeat's answer into the course's watch state, so the player updates at once. */
export function storeModuleWatch(queryClient: QueryClient, courseId: string, state: ModuleWatch) {
  queryClient.setQueryData<CourseWatch>(courseWatchQueryKey(courseId), (watch) =>
    watch
      ? {
          ...watch,
          modules: watch.modules.map((m) => (m.moduleId === state.moduleId ? state : m)),
        }
      : watch,
  );
}
