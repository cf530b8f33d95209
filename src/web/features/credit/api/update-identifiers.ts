import {
  type Identifiers,
  type IdentifiersInput,
  identifiersBodySchema,
  identifiersSchema,
} from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { identifiersQueryKey } from "./get-identifiers";

/** PATCH /api/me/identifiers: saves the values named, answers the whole record as stored. */
async function updateIdentifiers(body: IdentifiersInput): Promise<Identifiers> {
  return apiJson(
    identifiersSchema,
    "PATCH",
    "/api/me/identifiers",
    identifiersBodySchema.parse(body),
  );
}

export function useUpdateIdentifiers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateIdentifiers,
    onSuccess: (identifiers) => {
      queryClient.setQueryData(identifiersQueryKey, identifiers);
      // A course waiting only for the licence completes now: its checklist moves on.
      return queryClient.invalidateQueries({
        predicate: (query) =>
          query.queryKey[0] === "/api/courses" && query.queryKey[2] === "completion",
      });
    },
  });
}
