import { catalogueTypeSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { catalogueChanged } from "./catalogue-changed";

type MergeCatalogueTypeInput = { id: string; intoId: string };

/**
 * POST /api/credit-catalogue/types/:id/merge: the courses offering the type offer `intoId`
 * instead; refused (409) while a course offers both. Answers the type merged into.
 */
function mergeCatalogueType({ id, intoId }: MergeCatalogueTypeInput) {
  return apiJson(
    catalogueTypeSchema,
    "POST",
    `/api/credit-catalogue/types/${encodeURIComponent(id)}/merge`,
    { intoId },
  );
}

export function useMergeCatalogueType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: mergeCatalogueType,
    onSuccess: () => catalogueChanged(queryClient, { courses: true }),
  });
}
