import { type LearnerImportPreview, learnerImportPreviewSchema } from "@contract";
import { useMutation } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

/**
 * POST /api/users/learners/import/preview: the server reads the file and checks every row
 * as the import would; nothing is written.
 */
async function previewLearnerImport(csv: string): Promise<LearnerImportPreview> {
  return apiJson(learnerImportPreviewSchema, "POST", "/api/users/learners/import/preview", { csv });
}

export function usePreviewLearnerImport() {
  return useMutation({ mutationFn: previewLearnerImport });
}
