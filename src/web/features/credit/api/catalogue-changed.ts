import type { QueryClient } from "@tanstack/react-query";
import { creditCatalogueQueryKey } from "./admin-get-credit-catalogue";

/**
 * After the catalogue changes it is read again; with `courses`, so is every course read, as
 * each course's credit carries its catalogue type's words, body and provider number.
 */
export function catalogueChanged(queryClient: QueryClient, { courses = false } = {}) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: creditCatalogueQueryKey }),
    courses ? queryClient.invalidateQueries({ queryKey: ["/api/courses"] }) : null,
  ]);
}
