import type { ReactNode } from "react";
import { TooltipProvider } from "../../components/ui/tooltip";
import { AdminLayout } from "./admin-layout";
import { LearnerLayout } from "./learner-layout";
import { RoleLayout } from "./role-layout";

/*
 * The signed-in shells, loaded on demand by the router (the sign-in page's first
 * load stays small). Tooltips only appear inside them, so their provider (Radix tooltip
 * and Floating UI) lives here rather than in the app-wide providers.
 */

export function AdminShell() {
  return (
    <TooltipProvider>
      <AdminLayout />
    </TooltipProvider>
  );
}

export function LearnerShell() {
  return (
    <TooltipProvider>
      <LearnerLayout />
    </TooltipProvider>
  );
}

export function RoleShell({ children }: { children: ReactNode }) {
  return (
    <TooltipProvider>
      <RoleLayout>{children}</RoleLayout>
    </TooltipProvider>
  );
}
