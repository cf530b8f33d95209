import { type Activity, acknowledgeResponseSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { activityQueryKey } from "./get-activity";
import { courseCompletionQueryKey } from "./get-course-completion";

/** POST /api/courses/:id/acknowledge: the learner has read About this activity. */
async function acknowledgeActivity(courseId: string): Promise<string> {
  const body = await apiJson(
    acknowledgeResponseSchema,
    "POST",
    `/api/courses/${encodeURIComponent(courseId)}/acknowledge`,
  );
  return body.acknowledgedAt;
}

/** Acknowledges, then unlocks the first module in the player without another read of the activity. */
export function useAcknowledgeActivity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acknowledgeActivity,
    onSuccess: (acknowledgedAt, courseId) => {
      queryClient.setQueryData<Activity>(activityQueryKey(courseId), (activity) =>
        activity?.standing
          ? { ...activity, standing: { ...activity.standing, acknowledgedAt } }
          : activity,
      );
    },
    onSettled: (_at, _error, courseId) =>
      queryClient.invalidateQueries({ queryKey: courseCompletionQueryKey(courseId) }),
  });
}
