import type { CourseWatch, HeartbeatBody, ModuleWatch } from "@contract";
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
  if (options.keepalive) {
    const res = await fetch("/api/progress/heartbeat", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      credentials: "include",
      keepalive: true,
    });
    if (!res.ok) throw new Error(`${res.status}: ${await res.text()}`);
    return (await res.json()) as ModuleWatch;
  }
  return apiJson<ModuleWatch>("POST", "/api/progress/heartbeat", body);
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
