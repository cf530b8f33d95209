import { type PackageProgressRow, packageProgressRowSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { packageAttemptsQueryKey } from "./get-package-attempts";

type ResetInput = { courseId: string; moduleId: string; userId: string };

/**
 * POST .../package/attempts/:userId/reset: ends the learner's open attempt (recorded in the
 * audit trail); their next launch starts the next one. Answers the learner's new row.
 */
function resetPackageAttempt({
  courseId,
  moduleId,
  userId,
}: ResetInput): Promise<PackageProgressRow> {
  return apiJson(
    packageProgressRowSchema,
    "POST",
    `/api/courses/${encodeURIComponent(courseId)}/modules/${encodeURIComponent(moduleId)}/package/attempts/${encodeURIComponent(userId)}/reset`,
  );
}

export function useResetPackageAttempt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPackageAttempt,
    onSettled: (_row, _error, { courseId, moduleId }) =>
      queryClient.invalidateQueries({ queryKey: packageAttemptsQueryKey({ courseId, moduleId }) }),
  });
}
