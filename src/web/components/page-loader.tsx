import { MESSAGES } from "@contract";
import { Spinner } from "./ui/spinner";

/** A page's loading state inside a shell, whose header and navigation stay in place. */
export function PageLoader() {
  return (
    <p role="status" className="flex items-center gap-2 py-10 text-sm font-medium text-zinc-600">
      <Spinner className="size-4 text-indigo-600" />
      {MESSAGES.loading}
    </p>
  );
}
