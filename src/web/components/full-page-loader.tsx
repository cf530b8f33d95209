import { MESSAGES } from "@contract";
import { Spinner } from "./ui/spinner";

/** The loading state that holds content back while the session resolves ('Loading...'). */
export function FullPageLoader() {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-zinc-50">
      <p role="status" className="flex items-center gap-2.5 text-sm font-medium text-zinc-600">
        <Spinner className="size-5 text-indigo-600" />
        {MESSAGES.loading}
      </p>
    </div>
  );
}
