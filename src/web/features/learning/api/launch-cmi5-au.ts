import { type Cmi5Launch, type Cmi5LaunchBody, cmi5LaunchSchema } from "@contract";
import { useMutation } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

type LaunchInput = { courseId: string; moduleId: string } & Cmi5LaunchBody;

/** POST .../cmi5/launch: a new session of the AU, and its address on the content origin. */
async function launchCmi5Au({ courseId, moduleId, ...body }: LaunchInput): Promise<Cmi5Launch> {
  return apiJson(
    cmi5LaunchSchema,
    "POST",
    `/api/courses/${encodeURIComponent(courseId)}/modules/${encodeURIComponent(moduleId)}/cmi5/launch`,
    body,
  );
}

export function useLaunchCmi5Au() {
  return useMutation({ mutationFn: launchCmi5Au });
}
