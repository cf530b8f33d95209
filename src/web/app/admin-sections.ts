/**
 * The code of each admin section the sidebar links to: fetched on the section's first visit
 * (router.tsx), or already when its link is pointed at or focused (admin-layout.tsx), so
 * that the section is usually there when the click lands instead of its loading state.
 */
export const adminSectionCode = {
  "/admin": () => import("./routes/admin-dashboard"),
  "/admin/courses": () => import("./routes/admin-courses"),
  "/admin/learners": () => import("./routes/admin-learners"),
  "/admin/reports": () => import("./routes/admin-reports"),
  "/admin/reporting": () => import("./routes/admin-reporting"),
  "/admin/audit": () => import("./routes/admin-audit"),
  "/admin/settings": () => import("./routes/admin-settings"),
} as const;

type AdminSection = keyof typeof adminSectionCode;

/** Starts fetching a section's code; a failure is left for the section's own load to show. */
export function prefetchAdminSection(section: AdminSection): void {
  adminSectionCode[section]().catch(() => undefined);
}
