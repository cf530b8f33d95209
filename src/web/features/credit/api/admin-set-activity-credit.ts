import type { Activity, CreditSettings } from "@contract";
import type { QueryClient } from "@tanstack/react-query";
import { activityQueryKey } from "./get-activity";

/** The credit settings travel inside the activity: a saved change replaces them there. */
export function setActivityCredit(
  queryClient: QueryClient,
  courseId: string,
  credit: CreditSettings,
) {
  queryClient.setQueryData<Activity>(activityQueryKey(courseId), (activity) =>
    activity ? { ...activity, credit } : activity,
  );
}
