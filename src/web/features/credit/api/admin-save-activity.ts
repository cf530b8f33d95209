import { type ActivityBody, activitySchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { activityQueryKey } from "./get-activity";

type SaveActivityInput = { courseId: string; activity: ActivityBody };

/** PUT /api/courses/:id/activity: the whole activity at once; the answer is the saved page. */
async function saveActivity({ courseId, activity }: SaveActivityInput) {
  return apiJson(
    activitySchema,
    "PUT",
    `/api/courses/${encodeURIComponent(courseId)}/activity`,
    activity,
  );
}

export function useSaveActivity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveActivity,
    onSuccess: (activity, { courseId }) =>
      queryClient.setQueryData(activityQueryKey(courseId), activity),
  });
}
