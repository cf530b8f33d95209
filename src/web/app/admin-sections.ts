import { preloadable } from "../lib/preloadable";

/**
 * The admin sections the sidebar links to, each page's code loaded on the section's first
 * visit (router.tsx), or already when its link is pointed at or focused (admin-layout.tsx),
 * so that the section is usually there when the click lands instead of its loading state.
 */
export const adminSections = {
  "/admin": preloadable(() =>
    import("./routes/admin-dashboard").then((m) => m.AdminDashboardRoute),
  ),
  "/admin/courses": preloadable(() =>
    import("./routes/admin-courses").then((m) => m.AdminCoursesRoute),
  ),
  "/admin/learners": preloadable(() =>
    import("./routes/admin-learners").then((m) => m.AdminLearnersRoute),
  ),
  "/admin/reports": preloadable(() =>
    import("./routes/admin-reports").then((m) => m.AdminReportsRoute),
  ),
  "/admin/reporting": preloadable(() =>
    import("./routes/admin-reporting").then((m) => m.AdminReportingRoute),
  ),
  "/admin/audit": preloadable(() => import("./routes/admin-audit").then((m) => m.AdminAuditRoute)),
  "/admin/settings": preloadable(() =>
    import("./routes/admin-settings").then((m) => m.AdminSettingsRoute),
  ),
} as const;
