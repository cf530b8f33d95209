import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { catalogueChanged } from "./catalogue-changed";

/** DELETE /api/credit-catalogue/types/:id: refused (409) while a course offers the type. */
async function removeCatalogueType(id: string): Promise<void> {
  await apiRequest("DELETE", `/api/credit-catalogue/types/${encodeURIComponent(id)}`);
}

export function useRemoveCatalogueType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeCatalogueType,
    onSuccess: () => catalogueChanged(queryClient),
  });
}
