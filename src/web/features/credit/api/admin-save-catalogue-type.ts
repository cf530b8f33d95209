import { type CatalogueTypeBody, catalogueTypeSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson, type Idempotent } from "../../../lib/api-client";
import { catalogueChanged } from "./catalogue-changed";

type SaveCatalogueTypeInput = Idempotent<{ id?: string; body: CatalogueTypeBody }>;

/** POST /api/credit-catalogue/types, or PUT …/types/:id for one already kept. */
function saveCatalogueType({ id, body, idempotencyKey }: SaveCatalogueTypeInput) {
  return id
    ? apiJson(
        catalogueTypeSchema,
        "PUT",
        `/api/credit-catalogue/types/${encodeURIComponent(id)}`,
        body,
      )
    : apiJson(catalogueTypeSchema, "POST", "/api/credit-catalogue/types", body, {
        idempotencyKey,
      });
}

export function useSaveCatalogueType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCatalogueType,
    // An edited type changes what every course offering it prints and asks of learners.
    onSuccess: (_type, { id }) => catalogueChanged(queryClient, { courses: Boolean(id) }),
  });
}
