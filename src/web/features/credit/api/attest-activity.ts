import {
  type AttestWithIdentifiersBody,
  attestResponseSchema,
  attestWithIdentifiersBodySchema,
} from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { apiJson, type Idempotent } from "../../../lib/api-client";
import { courseCompletionQueryKey } from "./get-course-completion";
import { identifiersQueryKey } from "./get-identifiers";

type AttestInput = Idempotent<{ courseId: string; body: AttestWithIdentifiersBody }>;
export type AttestResult = z.infer<typeof attestResponseSchema>;

/**
 * POST /api/courses/:id/attest: the statement as read, the credit claimed, the consent to the
 * reporting of a claimed type that reports to a regulator, and the identifiers the page asked
 * for (saved into the learner's record with the attestation).
 */
async function attestActivity({
  courseId,
  body,
  idempotencyKey,
}: AttestInput): Promise<AttestResult> {
  return apiJson(
    attestResponseSchema,
    "POST",
    `/api/courses/${encodeURIComponent(courseId)}/attest`,
    attestWithIdentifiersBodySchema.parse(body),
    { idempotencyKey },
  );
}

export function useAttestActivity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: attestActivity,
    // Identifiers sent with a refused attestation were not saved: the form keeps them as typed.
    onSuccess: (_result, { body }) =>
      body.identifiers
        ? queryClient.invalidateQueries({ queryKey: identifiersQueryKey })
        : undefined,
    onSettled: (_result, _error, { courseId }) =>
      queryClient.invalidateQueries({ queryKey: courseCompletionQueryKey(courseId) }),
  });
}
