import type { Role } from "@contract";
import type { ReactNode } from "react";
import { Navigate } from "react-router";
import { FullPageLoader } from "../components/full-page-loader";
import { useSession } from "../features/auth/session-context";

/**
 * SPEC section 2 route guard: while the session resolves only a loading state shows;
 * with nobody signed in, or a role other than the required one, the user is sent to /
 * and nothing renders; otherwise the children render.
 */
export function RouteGuard({
  requiredRole,
  children,
}: {
  requiredRole?: Role;
  children: ReactNode;
}) {
  const { user, loading } = useSession();
  if (loading) return <FullPageLoader />;
  if (!user || (requiredRole !== undefined && user.role !== requiredRole))
    return <Navigate to="/" replace />;
  return children;
}
