import { type BulkEnrollResult, bulkEnrollResultSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson, type Idempotent } from "../../../lib/api-client";
import { invalidateLearnerData } from "./invalidate-learner-data";

/**
 * POST /api/enrollments/bulk: the selected learners in one course, in one transaction;
 * those already enrolled are skipped and reported.
 */
async function bulkEnroll({
  idempotencyKey,
  ...body
}: Idempotent<{ courseId: string; userIds: string[] }>): Promise<BulkEnrollResult> {
  return apiJson(bulkEnrollResultSchema, "POST", "/api/enrollments/bulk", body, {
    idempotencyKey,
  });
}

export function useBulkEnroll() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkEnroll,
    onSuccess: () => invalidateLearnerData(queryClient),
  });
}
