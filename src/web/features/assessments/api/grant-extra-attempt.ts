import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { examResultsQueryKey } from "./get-exam-results";

type GrantInput = { courseId: string; enrollmentId: string };

/** POST /api/enrollments/:id/exam/extra-attempt: one more attempt, recorded in the audit trail. */
async function grantExtraAttempt({ enrollmentId }: GrantInput) {
  await apiRequest(
    "POST",
    `/api/enrollments/${encodeURIComponent(enrollmentId)}/exam/extra-attempt`,
  );
}

export function useGrantExtraAttempt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: grantExtraAttempt,
    onSettled: (_result, _error, { courseId }) =>
      queryClient.invalidateQueries({ queryKey: examResultsQueryKey(courseId) }),
  });
}
