import { type SecondFactorPolicy, secondFactorPolicySchema } from "@contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

const policyQueryKey = ["/api/admin/second-factor/policy"] as const;

/** GET /api/admin/second-factor/policy: whether every administrator needs a second factor. */
export function useSecondFactorPolicy() {
  return useQuery(
    queryOptions({
      queryKey: policyQueryKey,
      queryFn: () => apiJson(secondFactorPolicySchema, "GET", "/api/admin/second-factor/policy"),
    }),
  );
}

/** PUT /api/admin/second-factor/policy. */
export function useSetSecondFactorPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (policy: SecondFactorPolicy) =>
      apiJson(secondFactorPolicySchema, "PUT", "/api/admin/second-factor/policy", policy),
    onSuccess: (policy) => queryClient.setQueryData(policyQueryKey, policy),
  });
}
