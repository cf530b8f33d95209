import { creditSettingsSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { setActivityCredit } from "./admin-set-activity-credit";

/** DELETE /api/courses/:id/signature: certificates issued from now on print no signature. */
async function removeSignature(courseId: string) {
  return apiJson(
    creditSettingsSchema,
    "DELETE",
    `/api/courses/${encodeURIComponent(courseId)}/signature`,
  );
}

export function useRemoveSignature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeSignature,
    onSuccess: (credit, courseId) => setActivityCredit(queryClient, courseId, credit),
  });
}
