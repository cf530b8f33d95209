import { RefreshCwIcon } from "lucide-react";
import type { ReactNode } from "react";
import { loadFailureHint } from "../../lib/api-client";
import { cn } from "../../lib/utils";
import { Button } from "./button";

/**
 * A learner's screen, or its main part, that could not be read: what failed, why when the
 * server said, what is safe meanwhile, and a way to try again (`children`: other ways out).
 * A part of a page that failed says so in place instead (load-error.tsx).
 */
export function PageLoadError({
  title,
  error,
  safe,
  onRetry,
  heading: Heading = "h2",
  children,
}: {
  title: string;
  error: unknown;
  /** What the failure leaves untouched ("Your progress is safe."). */
  safe?: string;
  onRetry: () => void;
  /** h1 when the failure is the whole screen. */
  heading?: "h1" | "h2";
  children?: ReactNode;
}) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center rounded-2xl border border-red-200 bg-red-50/60 px-6 py-12 text-center"
    >
      <Heading
        className={cn("font-semibold text-red-950", Heading === "h1" ? "text-xl" : "text-base")}
      >
        {title}
      </Heading>
      <p className="mt-1.5 max-w-sm text-sm text-red-900">
        {loadFailureHint(error, "Check your connection and try again.")}
        {safe ? ` ${safe}` : null}
      </p>
      <div className="mt-5 flex flex-wrap justify-center gap-2">
        <Button variant="outline" onClick={onRetry}>
          <RefreshCwIcon aria-hidden="true" />
          Try again
        </Button>
        {children}
      </div>
    </div>
  );
}
