import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, type ReactNode, Suspense } from "react";
import { SessionProvider } from "../features/auth/session-provider";
import { queryClient } from "../lib/query-client";

// The toast viewport (Radix Toast) loads right after the first render instead of with it;
// toasts raised before it arrives wait in the store and show once it mounts.
const Toaster = lazy(() =>
  import("../components/ui/toaster").then((m) => ({ default: m.Toaster })),
);

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        {children}
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      </SessionProvider>
    </QueryClientProvider>
  );
}
