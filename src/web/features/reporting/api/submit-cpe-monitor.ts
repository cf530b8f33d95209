import {
  type CpeMonitorSubmitResult,
  cpeMonitorSubmitBodySchema,
  cpeMonitorSubmitResultSchema,
  type ReportGenerateBody,
} from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson, type Idempotent } from "../../../lib/api-client";
import { regulatorsQueryKey } from "./get-regulators";

/** POST /api/admin/reports/regulators/cpe_monitor/submissions: each completion sent to the service. */
async function submitCpeMonitor({
  idempotencyKey,
  ...body
}: Idempotent<ReportGenerateBody>): Promise<CpeMonitorSubmitResult> {
  return apiJson(
    cpeMonitorSubmitResultSchema,
    "POST",
    "/api/admin/reports/regulators/cpe_monitor/submissions",
    cpeMonitorSubmitBodySchema.parse(body),
    { idempotencyKey },
  );
}

export function useSubmitCpeMonitor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitCpeMonitor,
    // The claims list shows each answer.
    onSettled: () => queryClient.invalidateQueries({ queryKey: regulatorsQueryKey }),
  });
}
