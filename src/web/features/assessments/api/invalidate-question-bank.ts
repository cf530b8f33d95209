import type { QueryClient } from "@tanstack/react-query";
import { examSettingsQueryKey } from "./get-exam-settings";
import { questionsQueryKey } from "./get-questions";

/** A changed bank changes the pools' sizes and the publish checks beside the list. */
export function invalidateQuestionBank(queryClient: QueryClient, courseId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: questionsQueryKey(courseId) }),
    queryClient.invalidateQueries({ queryKey: examSettingsQueryKey(courseId) }),
  ]);
}
