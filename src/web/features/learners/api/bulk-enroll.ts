import { type BulkEnrollResult, bulkEnrollResultSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { invalidateLearnerData } from "./invalidate-learner-data";

/**
 * POST /api/enrollments/bulk: the selected learners in one course, in one transaction;
 * those already enrolled are skipped and reported.
 */
async function bulkEnroll(input: {
  courseId: string;
  userIds: string[];
}): Promise<BulkEnrollResult> {
  return apiJson(bulkEnrollResultSchema, "POST", "/api/enrollments/bulk", input);
}

export function useBulkEnroll() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkEnroll,
    onSuccess: () => invalidateLearnerData(queryClient),
  });
}
