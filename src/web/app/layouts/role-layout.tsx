import type { ReactNode } from "react";
import { useCurrentUser } from "../../features/auth/session-context";
import { AdminLayout } from "./admin-layout";
import { LearnerLayout } from "./learner-layout";

/** Shared screens (the profile) sit inside the signed-in user's own shell. */
export function RoleLayout({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  return user.role === "admin" ? (
    <AdminLayout>{children}</AdminLayout>
  ) : (
    <LearnerLayout>{children}</LearnerLayout>
  );
}
