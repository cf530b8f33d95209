import { lazy, Suspense } from "react";
import { Route, Routes } from "react-router";
import { FullPageLoader } from "../components/full-page-loader";
import { adminSections } from "./admin-sections";
import { coursePlayerPage } from "./learner-pages";
import { RouteGuard } from "./route-guard";
import { SignInRoute } from "./routes/sign-in";

// Everything but the sign-in screen loads on demand, so the sign-in page's first load stays
// small (the budget: 170 KB of gzip JavaScript): the signed-in shells, every screen.
const AdminShell = lazy(() => import("./layouts/shells").then((m) => ({ default: m.AdminShell })));
const LearnerShell = lazy(() =>
  import("./layouts/shells").then((m) => ({ default: m.LearnerShell })),
);
const RoleShell = lazy(() => import("./layouts/shells").then((m) => ({ default: m.RoleShell })));
const ResetPasswordRoute = lazy(() =>
  import("./routes/reset-password").then((m) => ({ default: m.ResetPasswordRoute })),
);
const ProfileRoute = lazy(() =>
  import("./routes/profile").then((m) => ({ default: m.ProfileRoute })),
);
const NotFoundRoute = lazy(() =>
  import("./routes/not-found").then((m) => ({ default: m.NotFoundRoute })),
);
const AdminDashboardRoute = adminSections["/admin"].Loaded;
const AdminCoursesRoute = adminSections["/admin/courses"].Loaded;
const AdminCourseDetailRoute = lazy(() =>
  import("./routes/admin-course-detail").then((m) => ({ default: m.AdminCourseDetailRoute })),
);
const AdminExamResultsRoute = lazy(() =>
  import("./routes/admin-exam-results").then((m) => ({ default: m.AdminExamResultsRoute })),
);
const AdminPackageAttemptsRoute = lazy(() =>
  import("./routes/admin-package-attempts").then((m) => ({ default: m.AdminPackageAttemptsRoute })),
);
const AdminEvaluationResultsRoute = lazy(() =>
  import("./routes/admin-evaluation-results").then((m) => ({
    default: m.AdminEvaluationResultsRoute,
  })),
);
const AdminLearnersRoute = adminSections["/admin/learners"].Loaded;
const AdminReportsRoute = adminSections["/admin/reports"].Loaded;
const AdminReportingRoute = adminSections["/admin/reporting"].Loaded;
const LearnerDashboardRoute = lazy(() =>
  import("./routes/learner-dashboard").then((m) => ({ default: m.LearnerDashboardRoute })),
);
// The public verification page, transcripts, a learner's record and the audit trail.
const VerifyCertificateRoute = lazy(() =>
  import("./routes/verify-certificate").then((m) => ({ default: m.VerifyCertificateRoute })),
);
const LearnerTranscriptRoute = lazy(() =>
  import("./routes/learner-transcript").then((m) => ({ default: m.LearnerTranscriptRoute })),
);
const AdminLearnerRecordRoute = lazy(() =>
  import("./routes/admin-learner-record").then((m) => ({ default: m.AdminLearnerRecordRoute })),
);
const AdminSettingsRoute = adminSections["/admin/settings"].Loaded;
const AdminCreditCatalogueRoute = lazy(() =>
  import("./routes/admin-credit-catalogue").then((m) => ({ default: m.AdminCreditCatalogueRoute })),
);
const UnsubscribeRoute = lazy(() =>
  import("./routes/unsubscribe").then((m) => ({ default: m.UnsubscribeRoute })),
);
const AdminAuditRoute = adminSections["/admin/audit"].Loaded;
const CoursePlayerRoute = coursePlayerPage.Loaded;
const CourseExamRoute = lazy(() =>
  import("./routes/course-exam").then((m) => ({ default: m.CourseExamRoute })),
);
// The credit claim: About this activity, the evaluation, the form steps and the attestation.
const CourseAboutRoute = lazy(() =>
  import("./routes/course-about").then((m) => ({ default: m.CourseAboutRoute })),
);
const CourseEvaluationRoute = lazy(() =>
  import("./routes/course-evaluation").then((m) => ({ default: m.CourseEvaluationRoute })),
);
const CourseFormStepRoute = lazy(() =>
  import("./routes/course-form-step").then((m) => ({ default: m.CourseFormStepRoute })),
);
const CourseAttestationRoute = lazy(() =>
  import("./routes/course-attestation").then((m) => ({ default: m.CourseAttestationRoute })),
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
              <AdminShell />
            </RouteGuard>
          }
        >
          <Route path="/admin" element={<AdminDashboardRoute />} />
          <Route path="/admin/courses" element={<AdminCoursesRoute />} />
          <Route path="/admin/courses/:courseId" element={<AdminCourseDetailRoute />} />
          <Route path="/admin/courses/:courseId/exam-results" element={<AdminExamResultsRoute />} />
          <Route
            path="/admin/courses/:courseId/modules/:moduleId/learners"
            element={<AdminPackageAttemptsRoute />}
          />
          <Route
            path="/admin/courses/:courseId/evaluation-results"
            element={<AdminEvaluationResultsRoute />}
          />
          <Route path="/admin/learners" element={<AdminLearnersRoute />} />
          <Route path="/admin/learners/:learnerId" element={<AdminLearnerRecordRoute />} />
          <Route path="/admin/audit" element={<AdminAuditRoute />} />
          <Route path="/admin/settings" element={<AdminSettingsRoute />} />
          <Route path="/admin/settings/credit-catalogue" element={<AdminCreditCatalogueRoute />} />
          <Route path="/admin/reports" element={<AdminReportsRoute />} />
          <Route path="/admin/reporting" element={<AdminReportingRoute />} />
        </Route>
        <Route
          element={
            <RouteGuard requiredRole="learner">
              <LearnerShell />
            </RouteGuard>
          }
        >
          <Route path="/learner" element={<LearnerDashboardRoute />} />
          <Route path="/learner/transcript" element={<LearnerTranscriptRoute />} />
          <Route path="/course/:courseId" element={<CoursePlayerRoute />} />
          <Route path="/courses/:courseId/exam" element={<CourseExamRoute />} />
          <Route path="/courses/:courseId/about" element={<CourseAboutRoute />} />
          <Route path="/courses/:courseId/evaluation" element={<CourseEvaluationRoute />} />
          <Route path="/courses/:courseId/steps/:step" element={<CourseFormStepRoute />} />
          <Route path="/courses/:courseId/attestation" element={<CourseAttestationRoute />} />
        </Route>
        <Route
          path="/profile"
          element={
            <RouteGuard>
              <RoleShell>
                <ProfileRoute />
              </RoleShell>
            </RouteGuard>
          }
        />
        {/* Public: anyone holding a certificate checks it here, signed in or not. */}
        <Route path="/verify" element={<VerifyCertificateRoute />} />
        <Route path="/verify/:code" element={<VerifyCertificateRoute />} />
        {/* Public: a reminder email's unsubscribe link, no sign-in needed. */}
        <Route path="/unsubscribe" element={<UnsubscribeRoute />} />
        <Route path="*" element={<NotFoundRoute />} />
      </Routes>
    </Suspense>
  );
}
