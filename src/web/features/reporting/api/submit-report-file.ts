import { type Regulator, type ReportFile, reportFileSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson, type Idempotent } from "../../../lib/api-client";
import { regulatorsQueryKey } from "./get-regulators";

/** POST …/files/:fileId/submit: the file was uploaded to the regulator. */
async function submitReportFile(
  input: Idempotent<{ regulator: Regulator; fileId: string }>,
): Promise<ReportFile> {
  return apiJson(
    reportFileSchema,
    "POST",
    `/api/admin/reports/regulators/${input.regulator}/files/${encodeURIComponent(input.fileId)}/submit`,
    undefined,
    { idempotencyKey: input.idempotencyKey },
  );
}

export function useSubmitReportFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitReportFile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: regulatorsQueryKey }),
  });
}
