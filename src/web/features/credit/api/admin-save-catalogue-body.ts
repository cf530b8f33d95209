import { type CreditBodyBody, creditCatalogueSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson, type Idempotent } from "../../../lib/api-client";
import { catalogueChanged } from "./catalogue-changed";

const bodyAnswerSchema = creditCatalogueSchema.shape.bodies.element;

type SaveCatalogueBodyInput = Idempotent<{ id?: string; body: CreditBodyBody }>;

/** POST /api/credit-catalogue/bodies, or PUT …/bodies/:id for one already kept. */
function saveCatalogueBody({ id, body, idempotencyKey }: SaveCatalogueBodyInput) {
  return id
    ? apiJson(
        bodyAnswerSchema,
        "PUT",
        `/api/credit-catalogue/bodies/${encodeURIComponent(id)}`,
        body,
      )
    : apiJson(bodyAnswerSchema, "POST", "/api/credit-catalogue/bodies", body, { idempotencyKey });
}

export function useSaveCatalogueBody() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCatalogueBody,
    // A renamed or renumbered body prints anew on every course whose types it accredits.
    onSuccess: (_body, { id }) => catalogueChanged(queryClient, { courses: Boolean(id) }),
  });
}
