import { catalogueTypeSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { catalogueChanged } from "./catalogue-changed";

/** POST /api/credit-catalogue/types/:id/confirm: a type made from courses' words is kept as it is. */
function confirmCatalogueType(id: string) {
  return apiJson(
    catalogueTypeSchema,
    "POST",
    `/api/credit-catalogue/types/${encodeURIComponent(id)}/confirm`,
  );
}

export function useConfirmCatalogueType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmCatalogueType,
    onSuccess: () => catalogueChanged(queryClient),
  });
}
