import { type PublicConfig, publicConfigSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
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
