import { type AttestBody, attestBodySchema, attestResponseSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { apiJson } from "../../../lib/api-client";
import { courseCompletionQueryKey } from "./get-course-completion";

type AttestInput = { courseId: string; body: AttestBody };
export type AttestResult = z.infer<typeof attestResponseSchema>;

/** POST /api/courses/:id/attest: the statement as read, and the credit claimed. */
async function attestActivity({ courseId, body }: AttestInput): Promise<AttestResult> {
  return apiJson(
    attestResponseSchema,
    "POST",
    `/api/courses/${encodeURIComponent(courseId)}/attest`,
    attestBodySchema.parse(body),
  );
}

export function useAttestActivity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: attestActivity,
    onSettled: (_result, _error, { courseId }) =>
      queryClient.invalidateQueries({ queryKey: courseCompletionQueryKey(courseId) }),
  });
}
