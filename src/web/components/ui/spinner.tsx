import { LoaderCircleIcon } from "lucide-react";
import { cn } from "../../lib/utils";

/** A decorative spinning icon; pair it with visible text such as "Loading...". */
export function Spinner({ className }: { className?: string }) {
  return (
    <LoaderCircleIcon
      className={cn("size-4 animate-spin text-current", className)}
      aria-hidden="true"
    />
  );
}
