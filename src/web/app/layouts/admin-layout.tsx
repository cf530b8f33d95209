import {
  BookOpenIcon,
  BookPlusIcon,
  ChartColumnIcon,
  FileOutputIcon,
  LayoutDashboardIcon,
  LogOutIcon,
  MenuIcon,
  ScrollTextIcon,
  SettingsIcon,
  UsersIcon,
} from "lucide-react";
import { lazy, type ReactNode, Suspense, useRef, useState } from "react";
import { Link, NavLink, Outlet, useNavigate } from "react-router";
import { Logo } from "../../components/logo";
import { PageLoader } from "../../components/page-loader";
import { Button } from "../../components/ui/button";
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetTitle,
  SheetTrigger,
} from "../../components/ui/sheet";
import { UserAvatar } from "../../components/user-avatar";
import { useCurrentUser, useSession } from "../../features/auth/session-context";
import { useProductName } from "../../lib/app-config";
import { cn } from "../../lib/utils";
import { adminSections } from "../admin-sections";
import { SkipLink } from "./skip-link";

const NAV_ITEMS = [
  { to: "/admin", label: "Dashboard", icon: LayoutDashboardIcon, end: true },
  { to: "/admin/courses", label: "Courses", icon: BookOpenIcon, end: false },
  { to: "/admin/learners", label: "Learners", icon: UsersIcon, end: false },
  { to: "/admin/reports", label: "Reports", icon: ChartColumnIcon, end: false },
  { to: "/admin/reporting", label: "Reporting", icon: FileOutputIcon, end: false },
  { to: "/admin/audit", label: "Audit", icon: ScrollTextIcon, end: false },
  { to: "/admin/settings", label: "Settings", icon: SettingsIcon, end: false },
] as const;

// The course form (and its uploader) loads the first time 'Create Course' is pressed.
const CreateCourseDialog = lazy(() =>
  import("../../features/courses/components/create-course-dialog").then((m) => ({
    default: m.CreateCourseDialog,
  })),
);

/**
 * The admin shell (SPEC section 2): a sidebar with Dashboard, Courses, Create Course (which
 * opens the Create Course dialog), Learners, Reports, the profile and Log out; on phones a
 * top bar whose menu opens the same sidebar as a drawer. Renders the matched admin route,
 * or `children` when given.
 */
export function AdminLayout({ children }: { children?: ReactNode }) {
  const productName = useProductName();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const [createOpen, setCreateOpen] = useState(false);
  const [createRequested, setCreateRequested] = useState(false);
  const createAfterMenu = useRef(false);

  function openCreateCourse() {
    setCreateRequested(true);
    if (!menuOpen) {
      setCreateOpen(true);
      return;
    }
    // From the phone's drawer, the dialog opens once the drawer has closed and given the focus
    // back to the menu button: closing the dialog then returns there, not to the page's top.
    createAfterMenu.current = true;
    setMenuOpen(false);
  }

  return (
    <div className="min-h-dvh lg:grid lg:grid-cols-[16.5rem_minmax(0,1fr)]">
      <SkipLink />
      <aside className="hidden border-r border-zinc-200 bg-white lg:block">
        <div className="sticky top-0 h-dvh">
          <SidebarContent onCreateCourse={openCreateCourse} />
        </div>
      </aside>

      <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-zinc-200 bg-white px-3 lg:hidden">
        <Sheet open={menuOpen} onOpenChange={setMenuOpen}>
          <SheetTrigger asChild>
            <Button variant="ghost" size="icon" aria-label="Open menu" className="[&_svg]:size-5">
              <MenuIcon className="size-5" aria-hidden="true" />
            </Button>
          </SheetTrigger>
          <SheetContent
            onCloseAutoFocus={() => {
              if (!createAfterMenu.current) return;
              createAfterMenu.current = false;
              setCreateOpen(true);
            }}
          >
            <SheetTitle className="sr-only">Navigation</SheetTitle>
            <SheetDescription className="sr-only">Admin sections and your account</SheetDescription>
            <SidebarContent
              onNavigate={() => setMenuOpen(false)}
              onCreateCourse={openCreateCourse}
            />
          </SheetContent>
        </Sheet>
        <Link
          to="/admin"
          className="rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          <Logo name={productName} className="[&_svg]:size-7" />
        </Link>
      </header>

      <main id="main" tabIndex={-1} className="min-w-0 outline-none">
        <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 sm:py-8 lg:px-10 lg:py-10">
          <Suspense fallback={<PageLoader />}>{children ?? <Outlet />}</Suspense>
        </div>
      </main>
      {createRequested ? (
        <Suspense fallback={null}>
          <CreateCourseDialog
            open={createOpen}
            onOpenChange={setCreateOpen}
            createdBy={user.id}
            onCreated={(course) => navigate(`/admin/courses/${encodeURIComponent(course.id)}`)}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

function SidebarContent({
  onNavigate,
  onCreateCourse,
}: {
  onNavigate?: () => void;
  onCreateCourse: () => void;
}) {
  const productName = useProductName();
  const user = useCurrentUser();
  const { logout } = useSession();
  const navigate = useNavigate();
  const [loggingOut, setLoggingOut] = useState(false);

  async function onLogout() {
    setLoggingOut(true);
    try {
      await logout();
      onNavigate?.();
      navigate("/", { replace: true });
    } catch {
      setLoggingOut(false);
    }
  }

  return (
    <div className="flex h-full flex-col">
      <div className="flex h-16 items-center px-5">
        <Link
          to="/admin"
          onClick={onNavigate}
          className="rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          <Logo name={productName} />
        </Link>
      </div>
      <nav aria-label="Admin" className="flex-1 overflow-y-auto px-3 py-2">
        <p className="px-3 pb-2 text-[11px] font-semibold tracking-wider text-zinc-500 uppercase">
          Manage
        </p>
        <ul className="grid gap-0.5">
          {NAV_ITEMS.slice(0, 2).map((item) => (
            <NavItem key={item.to} {...item} onNavigate={onNavigate} />
          ))}
          <li>
            <button
              type="button"
              onClick={onCreateCourse}
              className={cn(
                "flex h-10 w-full items-center gap-3 rounded-lg px-3 text-left text-sm font-medium text-zinc-700 transition-colors",
                "hover:bg-zinc-100 hover:text-zinc-950",
                "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
              )}
            >
              <BookPlusIcon className="size-[18px] text-zinc-500" aria-hidden="true" />
              Create Course
            </button>
          </li>
          {NAV_ITEMS.slice(2).map((item) => (
            <NavItem key={item.to} {...item} onNavigate={onNavigate} />
          ))}
        </ul>
      </nav>
      <div className="grid gap-1 border-t border-zinc-200 p-3">
        <NavLink
          to="/profile"
          onClick={onNavigate}
          className={({ isActive }) =>
            cn(
              "flex items-center gap-3 rounded-lg p-2 transition-colors",
              "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
              isActive ? "bg-indigo-50" : "hover:bg-zinc-100",
            )
          }
        >
          <UserAvatar name={user.name} />
          <span className="grid min-w-0 leading-tight">
            <span className="truncate text-sm font-medium text-zinc-900">{user.name}</span>
            <span className="truncate text-xs text-zinc-600">View profile</span>
          </span>
        </NavLink>
        <Button
          variant="ghost"
          className="justify-start gap-3 px-3 text-zinc-700"
          onClick={() => void onLogout()}
          disabled={loggingOut}
        >
          <LogOutIcon className="text-zinc-500" aria-hidden="true" />
          Log out
        </Button>
      </div>
    </div>
  );
}

function NavItem({
  to,
  label,
  icon: Icon,
  end,
  onNavigate,
}: (typeof NAV_ITEMS)[number] & { onNavigate?: () => void }) {
  return (
    <li>
      <NavLink
        to={to}
        end={end}
        onClick={onNavigate}
        onPointerEnter={adminSections[to].preload}
        onFocus={adminSections[to].preload}
        className={({ isActive }) =>
          cn(
            "flex h-10 items-center gap-3 rounded-lg px-3 text-sm font-medium transition-colors",
            "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
            isActive
              ? "bg-indigo-50 text-indigo-800"
              : "text-zinc-700 hover:bg-zinc-100 hover:text-zinc-950",
          )
        }
      >
        {({ isActive }) => (
          <>
            <Icon
              className={cn("size-[18px]", isActive ? "text-indigo-700" : "text-zinc-500")}
              aria-hidden="true"
            />
            {label}
          </>
        )}
      </NavLink>
    </li>
  );
}
