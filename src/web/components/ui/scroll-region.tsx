import { type ComponentProps, useEffect, useRef, useState } from "react";
import { cn } from "../../lib/utils";

type Overflow = { sideways: boolean; atStart: boolean; atEnd: boolean };
const NONE: Overflow = { sideways: false, atStart: true, atEnd: true };

/** Whether the content is wider than the region, and which edges have more beyond them. */
function measure(el: HTMLElement): Overflow {
  const hidden = el.scrollWidth - el.clientWidth;
  if (hidden <= 1) return NONE;
  return { sideways: true, atStart: el.scrollLeft <= 1, atEnd: el.scrollLeft >= hidden - 1 };
}

const same = (a: Overflow, b: Overflow) =>
  a.sideways === b.sideways && a.atStart === b.atStart && a.atEnd === b.atEnd;

/**
 * A labelled region that scrolls (a wide table on a phone, a long list): it takes keyboard
 * focus so it can be scrolled with keys (axe rule scrollable-region-focusable), and is the
 * containing block of what it holds, so screen-reader-only text never widens the page.
 * When its content is wider than the screen it says so: a hint above it and a shadow on
 * each edge that hides columns, so no column goes unnoticed on a phone.
 */
export function ScrollRegion({ className, children, ...props }: ComponentProps<"section">) {
  const region = useRef<HTMLElement>(null);
  const [overflow, setOverflow] = useState<Overflow>(NONE);

  useEffect(() => {
    const el = region.current;
    if (!el) return;
    const update = () => {
      const next = measure(el);
      setOverflow((current) => (same(current, next) ? current : next));
    };
    update();
    // The region and its content both resize (the window, rows loading in).
    const observer = new ResizeObserver(update);
    observer.observe(el);
    for (const child of el.children) observer.observe(child);
    el.addEventListener("scroll", update, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener("scroll", update);
    };
  }, []);

  return (
    <div className="min-w-0">
      {overflow.sideways ? (
        <p
          className="flex items-center justify-end gap-1 px-5 pb-2 text-xs text-zinc-600 sm:px-6"
          data-testid="scroll-hint"
        >
          Scroll sideways for more columns <span aria-hidden="true">→</span>
        </p>
      ) : null}
      <div className="relative">
        <section
          ref={region}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable.
          tabIndex={0}
          data-overflowing={overflow.sideways ? "sideways" : undefined}
          className={cn(
            "relative focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-inset",
            className,
          )}
          {...props}
        >
          {children}
        </section>
        <EdgeShadow side="left" shown={overflow.sideways && !overflow.atStart} />
        <EdgeShadow side="right" shown={overflow.sideways && !overflow.atEnd} />
      </div>
    </div>
  );
}

function EdgeShadow({ side, shown }: { side: "left" | "right"; shown: boolean }) {
  return (
    <div
      aria-hidden="true"
      data-testid={shown ? `scroll-shadow-${side}` : undefined}
      className={cn(
        "pointer-events-none absolute inset-y-0 w-6 from-zinc-900/15 to-transparent transition-opacity",
        side === "left" ? "left-0 bg-linear-to-r" : "right-0 bg-linear-to-l",
        shown ? "opacity-100" : "opacity-0",
      )}
    />
  );
}
