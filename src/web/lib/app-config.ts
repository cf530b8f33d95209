import { type PublicConfig, publicConfigSchema } from "@contract";
import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { getQueryFn } from "./api-client";

/** Shown until GET /api/config answers, and if it never does. */
const DEFAULT_PRODUCT_NAME = "Credo";

const getConfigQueryOptions = () =>
  queryOptions({
    queryKey: ["/api/config"],
    queryFn: getQueryFn(publicConfigSchema, { on401: "throw" }),
  });

/**
 * The deployment's public configuration (product name, password-setup mode and the
 * identity-service settings), fetched once per page load.
 */
export function useAppConfig(): PublicConfig {
  const { data } = useQuery(getConfigQueryOptions());
  return data ?? { productName: DEFAULT_PRODUCT_NAME, passwordSetupMode: "open", firebase: null };
}

export function useProductName(): string {
  return useAppConfig().productName || DEFAULT_PRODUCT_NAME;
}

/**
 * The identity-service settings for something the user does now (sign in, set a password,
 * sign out): waits for GET /api/config when the page has not had its answer yet, since a
 * sign-in sent before it would skip the identity service. Null when the configuration cannot
 * be read: the action then takes the server-only path, as when the identity service fails.
 */
export function useIdentitySettings(): () => Promise<PublicConfig["firebase"]> {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      queryClient.ensureQueryData(getConfigQueryOptions()).then(
        (config) => config.firebase,
        () => null,
      ),
    [queryClient],
  );
}
