import { LogOutIcon, ScrollTextIcon } from "lucide-react";
import { type ReactNode, Suspense, useEffect, useState } from "react";
import { Link, NavLink, Outlet, useNavigate } from "react-router";
import { Logo } from "../../components/logo";
import { PageLoader } from "../../components/page-loader";
import { Button } from "../../components/ui/button";
import { UserAvatar } from "../../components/user-avatar";
import { useCurrentUser, useSession } from "../../features/auth/session-context";
import { useProductName } from "../../lib/app-config";
import { cn } from "../../lib/utils";
import { coursePlayerPage } from "../learner-pages";
import { SkipLink } from "./skip-link";

/** The learner shell: a header with the product name, the profile link and Log out. */
export function LearnerLayout({ children }: { children?: ReactNode }) {
  const productName = useProductName();
  const user = useCurrentUser();
  const { logout } = useSession();
  const navigate = useNavigate();
  const [loggingOut, setLoggingOut] = useState(false);
  useEffect(() => whenIdle(coursePlayerPage.preload), []);

  async function onLogout() {
    setLoggingOut(true);
    try {
      await logout();
      navigate("/", { replace: true });
    } catch {
      setLoggingOut(false);
    }
  }

  return (
    <div className="min-h-dvh">
      <SkipLink />
      {/* Solid rather than frosted: a backdrop blur is redrawn on every frame that scrolls
          beneath it, which a machine without graphics acceleration pays for in stutter. */}
      <header className="sticky top-0 z-30 border-b border-zinc-200 bg-white">
        <div className="mx-auto flex h-16 w-full max-w-6xl items-center gap-3 px-4 sm:px-6 lg:px-10">
          <Link
            to="/learner"
            className="rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          >
            <Logo name={productName} />
          </Link>
          <nav aria-label="Account" className="ml-auto flex items-center gap-1 sm:gap-2">
            <NavLink
              to="/learner/transcript"
              aria-label="Transcript"
              className={({ isActive }) =>
                cn(
                  "flex h-9 items-center gap-2 rounded-md px-2.5 text-sm font-medium text-zinc-700 transition-colors sm:px-3",
                  "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
                  isActive ? "bg-indigo-50 text-indigo-800" : "hover:bg-zinc-100",
                )
              }
            >
              <ScrollTextIcon className="size-4 text-zinc-500" aria-hidden="true" />
              <span className="hidden sm:inline">Transcript</span>
            </NavLink>
            <NavLink
              to="/profile"
              aria-label={`${user.name}, profile`}
              className={({ isActive }) =>
                cn(
                  "flex items-center gap-2.5 rounded-full py-1 pr-1 pl-1 transition-colors sm:pr-3",
                  "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
                  isActive ? "bg-indigo-50" : "hover:bg-zinc-100",
                )
              }
            >
              <UserAvatar name={user.name} className="size-8" />
              <span className="hidden max-w-40 truncate text-sm font-medium text-zinc-800 sm:inline">
                {user.name}
              </span>
            </NavLink>
            <Button
              variant="ghost"
              size="sm"
              className="h-9 px-2.5 text-zinc-700 sm:px-3"
              onClick={() => void onLogout()}
              disabled={loggingOut}
              aria-label="Log out"
            >
              <LogOutIcon className="text-zinc-500" aria-hidden="true" />
              <span className="hidden sm:inline">Log out</span>
            </Button>
          </nav>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="outline-none">
        <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 sm:py-8 lg:px-10 lg:py-10">
          <Suspense fallback={<PageLoader />}>{children ?? <Outlet />}</Suspense>
        </div>
      </main>
    </div>
  );
}

/**
 * Runs `work` once the browser has nothing more pressing (the page's own requests first);
 * where idle callbacks are missing (Safari), after the current task. Returns the cancel.
 */
function whenIdle(work: () => void): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const id = window.requestIdleCallback(work, { timeout: 2_000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(work, 0);
  return () => window.clearTimeout(id);
}
