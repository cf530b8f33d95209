import { RefreshCwIcon } from "lucide-react";
import { cn } from "../../lib/utils";
import { Button } from "./button";

/** A part of a page that could not be loaded, in place, with a way to try again. */
export function LoadError({
  message,
  onRetry,
  className,
}: {
  message: string;
  onRetry: () => void;
  className?: string;
}) {
  return (
    <div
      role="alert"
      className={cn(
        "flex flex-col gap-3 rounded-xl border border-red-200 bg-red-50/60 p-4 text-sm text-red-900 sm:flex-row sm:items-center sm:justify-between",
        className,
      )}
    >
      <p>{message}</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RefreshCwIcon aria-hidden="true" />
        Try again
      </Button>
    </div>
  );
}
