import {
  type ParsActivityFileBody,
  parsActivityFileBodySchema,
  type ReportFile,
  reportFileSchema,
} from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson, type Idempotent } from "../../../lib/api-client";
import { regulatorsQueryKey } from "./get-regulators";

/** POST /api/admin/reports/regulators/pars/activity-files: the course's PARS activity record. */
async function generateParsActivityFile({
  idempotencyKey,
  ...body
}: Idempotent<ParsActivityFileBody>): Promise<ReportFile> {
  return apiJson(
    reportFileSchema,
    "POST",
    "/api/admin/reports/regulators/pars/activity-files",
    parsActivityFileBodySchema.parse(body),
    { idempotencyKey },
  );
}

export function useGenerateParsActivityFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateParsActivityFile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: regulatorsQueryKey }),
  });
}
