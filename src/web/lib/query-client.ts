import { QueryClient } from "@tanstack/react-query";
import { getQueryFn } from "./api-client";

/** SPEC section 9: never refetch on focus, never poll, never stale, no retries. */
function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: "throw" }),
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Number.POSITIVE_INFINITY,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}

export const queryClient = createQueryClient();
