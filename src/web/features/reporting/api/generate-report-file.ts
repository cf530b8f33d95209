import {
  type Regulator,
  type ReportFile,
  type ReportGenerateBody,
  reportFileSchema,
  reportGenerateBodySchema,
} from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson, type Idempotent } from "../../../lib/api-client";
import { regulatorsQueryKey } from "./get-regulators";

/** POST /api/admin/reports/regulators/:regulator/files: a file of what is not yet reported. */
async function generateReportFile(
  input: Idempotent<{ regulator: Regulator; body: ReportGenerateBody }>,
): Promise<ReportFile> {
  return apiJson(
    reportFileSchema,
    "POST",
    `/api/admin/reports/regulators/${input.regulator}/files`,
    reportGenerateBodySchema.parse(input.body),
    { idempotencyKey: input.idempotencyKey },
  );
}

export function useGenerateReportFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateReportFile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: regulatorsQueryKey }),
  });
}
