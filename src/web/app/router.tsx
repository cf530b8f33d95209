import { lazy, Suspense } from "react";
import { Route, Routes } from "react-router";
import { FullPageLoader } from "../components/full-page-loader";
import { AdminLayout } from "./layouts/admin-layout";
import { LearnerLayout } from "./layouts/learner-layout";
import { RoleLayout } from "./layouts/role-layout";
import { RouteGuard } from "./route-guard";
import { NotFoundRoute } from "./routes/not-found";
import { ProfileRoute } from "./routes/profile";
import { ResetPasswordRoute } from "./routes/reset-password";
import { SignInRoute } from "./routes/sign-in";

// The admin and learner screens load on demand, so the sign-in page's first load stays small.
const AdminDashboardRoute = lazy(() =>
  import("./routes/admin-dashboard").then((m) => ({ default: m.AdminDashboardRoute })),
);
const AdminCoursesRoute = lazy(() =>
  import("./routes/admin-courses").then((m) => ({ default: m.AdminCoursesRoute })),
);
const AdminCourseDetailRoute = lazy(() =>
  import("./routes/admin-course-detail").then((m) => ({ default: m.AdminCourseDetailRoute })),
);
const AdminLearnersRoute = lazy(() =>
  import("./routes/admin-learners").then((m) => ({ default: m.AdminLearnersRoute })),
);
const AdminReportsRoute = lazy(() =>
  import("./routes/admin-reports").then((m) => ({ default: m.AdminReportsRoute })),
);
const LearnerDashboardRoute = lazy(() =>
  import("./routes/learner-dashboard").then((m) => ({ default: m.LearnerDashboardRoute })),
);
const CoursePlayerRoute = lazy(() =>
  import("./routes/course-player").then((m) => ({ default: m.CoursePlayerRoute })),
);

/** Every route of SPEC section 2. */
export function AppRoutes() {
  return (
    <Suspense fallback={<FullPageLoader />}>
      <Routes>
        <Route path="/" element={<SignInRoute />} />
        <Route path="/reset-password" element={<ResetPasswordRoute />} />
        <Route
          element={
            <RouteGuard requiredRole="admin">
              <AdminLayout />
            </RouteGuard>
          }
        >
          <Route path="/admin" element={<AdminDashboardRoute />} />
          <Route path="/admin/courses" element={<AdminCoursesRoute />} />
          <Route path="/admin/courses/:courseId" element={<AdminCourseDetailRoute />} />
          <Route path="/admin/learners" element={<AdminLearnersRoute />} />
          <Route path="/admin/reports" element={<AdminReportsRoute />} />
        </Route>
        <Route
          element={
            <RouteGuard requiredRole="learner">
              <LearnerLayout />
            </RouteGuard>
          }
        >
          <Route path="/learner" element={<LearnerDashboardRoute />} />
          <Route path="/course/:courseId" element={<CoursePlayerRoute />} />
        </Route>
        <Route
          path="/profile"
          element={
            <RouteGuard>
              <RoleLayout>
                <ProfileRoute />
              </RoleLayout>
            </RouteGuard>
          }
        />
        <Route path="*" element={<NotFoundRoute />} />
      </Routes>
    </Suspense>
  );
}
