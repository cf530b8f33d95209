import { MESSAGES } from "@contract";
import { ArrowLeftIcon } from "lucide-react";
import { Link } from "react-router";
import { LogoMark } from "../../components/logo";
import { Button } from "../../components/ui/button";
import { useDocumentTitle } from "../../lib/use-document-title";

/** Any unknown path (SPEC section 2). */
export function NotFoundRoute() {
  useDocumentTitle(MESSAGES.pageNotFound);
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-zinc-50 px-6 py-16 text-center">
      <LogoMark className="size-10" />
      <p className="mt-8 text-sm font-semibold tracking-wide text-indigo-700">404</p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight text-zinc-950 sm:text-4xl">
        {MESSAGES.pageNotFound}
      </h1>
      <p className="mt-3 max-w-sm text-[15px] text-zinc-600">
        The page you are looking for does not exist or has moved.
      </p>
      <Button asChild size="lg" className="mt-8">
        <Link to="/">
          <ArrowLeftIcon aria-hidden="true" />
          Back to home
        </Link>
      </Button>
    </main>
  );
}
