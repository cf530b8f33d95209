import type { ComponentProps } from "react";
import { cn } from "../../lib/utils";

/**
 * A labelled region that scrolls (a wide table on a phone, a long list): it takes keyboard
 * focus so it can be scrolled with keys (axe rule scrollable-region-focusable), and is the
 * containing block of what it holds, so screen-reader-only text never widens the page.
 */
export function ScrollRegion({ className, ...props }: ComponentProps<"section">) {
  return (
    <section
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable.
      tabIndex={0}
      className={cn(
        "relative focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-inset",
        className,
      )}
      {...props}
    />
  );
}
