import { QueryClient } from "@tanstack/react-query";

/**
 * SPEC section 9: never refetch on focus, never poll, never stale, no retries. There is no
 * default query function: each query names its address and the contract schema its answer
 * must match.
 */
function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
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
