import {
  type Regulator,
  type RegulatorConnection,
  type RegulatorConnectionBody,
  regulatorConnectionBodySchema,
  regulatorConnectionSchema,
} from "@contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { regulatorsQueryKey } from "./get-regulators";

const connectionQueryKey = (regulator: Regulator) =>
  [...regulatorsQueryKey, regulator, "connection"] as const;

/** GET /api/admin/reports/regulators/:regulator/connection: how Credo reaches it (no credential). */
async function getRegulatorConnection(regulator: Regulator): Promise<RegulatorConnection> {
  return apiJson(
    regulatorConnectionSchema,
    "GET",
    `/api/admin/reports/regulators/${regulator}/connection`,
  );
}

export function useRegulatorConnection(regulator: Regulator) {
  return useQuery(
    queryOptions({
      queryKey: connectionQueryKey(regulator),
      queryFn: () => getRegulatorConnection(regulator),
    }),
  );
}

/** PUT /api/admin/reports/regulators/:regulator/connection: a credential left out stays saved. */
async function saveRegulatorConnection(input: {
  regulator: Regulator;
  body: RegulatorConnectionBody;
}): Promise<RegulatorConnection> {
  return apiJson(
    regulatorConnectionSchema,
    "PUT",
    `/api/admin/reports/regulators/${input.regulator}/connection`,
    regulatorConnectionBodySchema.parse(input.body),
  );
}

export function useSaveRegulatorConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveRegulatorConnection,
    onSuccess: (connection) =>
      queryClient.setQueryData(connectionQueryKey(connection.regulator), connection),
  });
}
