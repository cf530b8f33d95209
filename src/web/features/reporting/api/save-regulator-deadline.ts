import { type Regulator, type RegulatorOverview, regulatorOverviewSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { regulatorsQueryKey } from "./get-regulators";

/** PUT /api/admin/reports/regulators/:regulator: the days a claim may wait. */
async function saveRegulatorDeadline(input: {
  regulator: Regulator;
  deadlineDays: number;
}): Promise<RegulatorOverview> {
  return apiJson(
    regulatorOverviewSchema,
    "PUT",
    `/api/admin/reports/regulators/${input.regulator}`,
    { deadlineDays: input.deadlineDays },
  );
}

export function useSaveRegulatorDeadline() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveRegulatorDeadline,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: regulatorsQueryKey }),
  });
}
