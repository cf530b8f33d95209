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
 * The configuration for something the user does now (sign in, set a password, sign out,
 * verify an email for password setup): waits for GET /api/config when the page has not had
 * its answer yet, since an action decided on the defaults would take the wrong path (a
 * sign-in that skips the identity service, an open setup on an invite-only portal). Null
 * when the configuration cannot be read.
 */
export function useConfigForAction(): () => Promise<PublicConfig | null> {
  const queryClient = useQueryClient();
  return useCallback(
    () => queryClient.ensureQueryData(getConfigQueryOptions()).catch(() => null),
    [queryClient],
  );
}

/**
 * The identity-service settings for an action (useConfigForAction). Null when the
 * configuration cannot be read: the action then takes the server-only path, as when the
 * identity service fails.
 */
export function useIdentitySettings(): () => Promise<PublicConfig["firebase"]> {
  const configForAction = useConfigForAction();
  return useCallback(async () => (await configForAction())?.firebase ?? null, [configForAction]);
}
