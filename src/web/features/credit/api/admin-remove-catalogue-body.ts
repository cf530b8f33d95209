import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { catalogueChanged } from "./catalogue-changed";

/** DELETE /api/credit-catalogue/bodies/:id: refused (409) while a credit type names the body. */
async function removeCatalogueBody(id: string): Promise<void> {
  await apiRequest("DELETE", `/api/credit-catalogue/bodies/${encodeURIComponent(id)}`);
}

export function useRemoveCatalogueBody() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeCatalogueBody,
    onSuccess: () => catalogueChanged(queryClient),
  });
}
