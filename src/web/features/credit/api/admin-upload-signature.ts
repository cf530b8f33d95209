import { creditSettingsSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { setActivityCredit } from "./admin-set-activity-credit";

type UploadSignatureInput = { courseId: string; dataUrl: string };

/** PUT /api/courses/:id/signature: the official's signature, a PNG or JPEG as a data URL. */
async function uploadSignature({ courseId, dataUrl }: UploadSignatureInput) {
  return apiJson(
    creditSettingsSchema,
    "PUT",
    `/api/courses/${encodeURIComponent(courseId)}/signature`,
    { dataUrl },
  );
}

export function useUploadSignature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadSignature,
    onSuccess: (credit, { courseId }) => setActivityCredit(queryClient, courseId, credit),
  });
}
