import {
  type AttestWithConsentBody,
  attestResponseSchema,
  attestWithConsentBodySchema,
} from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { apiJson } from "../../../lib/api-client";
import { courseCompletionQueryKey } from "./get-course-completion";

type AttestInput = { courseId: string; body: AttestWithConsentBody };
export type AttestResult = z.infer<typeof attestResponseSchema>;

/**
 * POST /api/courses/:id/attest: the statement as read, the credit claimed, and the consent to
 * the reporting of a claimed type that reports to a regulator.
 */
async function attestActivity({ courseId, body }: AttestInput): Promise<AttestResult> {
  return apiJson(
    attestResponseSchema,
    "POST",
    `/api/courses/${encodeURIComponent(courseId)}/attest`,
    attestWithConsentBodySchema.parse(body),
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
