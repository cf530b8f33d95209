import {
  type IdentityProviderInput,
  identityProviderListSchema,
  identityProviderResponseSchema,
  messageSchema,
} from "@contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

const listKey = ["/api/identity-providers"] as const;

/** GET /api/identity-providers: Settings' single sign-on card (administrators). */
export function useIdentityProviders() {
  return useQuery({
    queryKey: listKey,
    queryFn: () => apiJson(identityProviderListSchema, "GET", "/api/identity-providers"),
  });
}

/** POST, or PATCH when editing: the whole settings; a blank secret keeps the one set. */
export function useSaveIdentityProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: IdentityProviderInput }) =>
      id
        ? apiJson(identityProviderResponseSchema, "PATCH", `/api/identity-providers/${id}`, input)
        : apiJson(identityProviderResponseSchema, "POST", "/api/identity-providers", input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: listKey });
      void queryClient.invalidateQueries({ queryKey: ["/api/sign-on/providers"] });
    },
  });
}

export function useDeleteIdentityProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiJson(messageSchema, "DELETE", `/api/identity-providers/${encodeURIComponent(id)}`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: listKey });
      void queryClient.invalidateQueries({ queryKey: ["/api/sign-on/providers"] });
    },
  });
}
