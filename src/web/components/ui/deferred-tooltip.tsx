import { type ReactNode, useEffect, useState } from "react";

type TooltipModule = typeof import("./tooltip");

let loaded: TooltipModule | null = null;
let loading: Promise<TooltipModule> | null = null;
const load = () => {
  loading ??= import("./tooltip").then(
    (m) => {
      loaded = m;
      return m;
    },
    (err: unknown) => {
      loading = null; // retried by the next tooltip that mounts
      throw err;
    },
  );
  return loading;
};

/**
 * SimpleTooltip for screens outside the signed-in shells (the sign-in and reset-password
 * pages' password toggle): Radix Tooltip and Floating UI (~18 KB gzip) load right after the
 * first render instead of with it (the budget for the sign-in page's first load). Until
 * then the trigger renders alone; it brings its own provider with the SPEC delays, since the
 * app-wide one lives in the signed-in shells.
 */
export function DeferredTooltip({
  content,
  children,
}: {
  content: ReactNode;
  children: ReactNode;
}) {
  const [tooltip, setTooltip] = useState(loaded);
  useEffect(() => {
    if (tooltip) return;
    let live = true;
    load().then(
      (m) => {
        if (live) setTooltip(m);
      },
      () => undefined, // without its tooltip the button still works
    );
    return () => {
      live = false;
    };
  }, [tooltip]);
  if (!tooltip) return children;
  const { SimpleTooltip, TooltipProvider } = tooltip;
  return (
    <TooltipProvider>
      <SimpleTooltip content={content}>{children}</SimpleTooltip>
    </TooltipProvider>
  );
}
