import { type Cmi5Status, type Cmi5WaiveBody, cmi5StatusSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { packageAttemptsQueryKey } from "./get-package-attempts";

type WaiveInput = { courseId: string; moduleId: string } & Cmi5WaiveBody;

/**
 * POST .../cmi5/waive: the unit counts for the learner without being taken (cmi5's
 * "waived"); the module completes when every unit then counts. Answers the learner's units.
 */
function waiveCmi5Unit({ courseId, moduleId, ...body }: WaiveInput): Promise<Cmi5Status> {
  return apiJson(
    cmi5StatusSchema,
    "POST",
    `/api/courses/${encodeURIComponent(courseId)}/modules/${encodeURIComponent(moduleId)}/cmi5/waive`,
    body,
  );
}

export function useWaiveCmi5Unit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: waiveCmi5Unit,
    onSettled: (_status, _error, { courseId, moduleId }) =>
      queryClient.invalidateQueries({ queryKey: packageAttemptsQueryKey({ courseId, moduleId }) }),
  });
}
