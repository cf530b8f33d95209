import type { InjectOptions } from "fastify";
import { describe, expect, it } from "vitest";
import {
  type Course,
  DEFAULT_ACTIVITY,
  DEFAULT_CREDIT_SETTINGS,
  DEFAULT_EXAM_SETTINGS,
  QUESTION_CSV_COLUMNS,
} from "../../contract";
import { addQuestion, questionBody } from "../testing/assessments";
import { addModule, createCourse, moduleId, publish, validModule } from "../testing/courses";
import { userById } from "../testing/inspect";
import {
  buildPublishedCourse,
  completeViaApi,
  enrollViaApi,
  nextModuleNumber,
  quickAdmin,
  quickLearner,
  useSharedVideo,
} from "../testing/learning";
import { type TestContext, useTestApp } from "../testing/test-app";
import { requestUpload, uploadObject } from "../testing/uploads";
import { expectRefusal, expectUnchanged, sessionCookie, snapshotAll } from "./support";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

interface World {
  adminCookie: string;
  learnerCookie: string;
  learner: { id: string; email: string };
  other: { id: string; email: string; name: string };
  course: Course;
  draft: Course;
  otherEnrollmentId: string;
  pendingUploadId: string;
  video: string;
  /** A question of the draft's bank. */
  questionId: string;
}

/** A catalogue credit type as an administrator adds it. */
const CATALOGUE_TYPE = {
  name: "contact hours",
  singularName: "contact hour",
  bodyId: null,
  accreditationStatement: "",
  designationStatement: "",
  profession: "Nursing",
  regulators: [],
  fieldsOfStudyRequired: false,
  licenceRequired: false,
};

/** An identity provider as an administrator adds it. */
const OIDC_PROVIDER = {
  protocol: "oidc",
  name: "Acme ID",
  domains: ["example.com"],
  issuer: "https://login.example.com",
  clientId: "credo",
  clientSecret: "secret",
};

/**
 * Every administrator route with a request that would succeed for an administrator, so a
 * missing guard shows up as a changed database, not merely as a different status.
 */
const ADMIN_ROUTES: {
  method: Method;
  path: string;
  request(w: World): { url: string; payload?: object };
}[] = [
  {
    method: "POST",
    path: "/api/auth/register",
    request: () => ({
      url: "/api/auth/register",
      payload: { email: "sneaky@example.com", name: "Sneaky" },
    }),
  },
  {
    method: "POST",
    path: "/api/courses",
    request: () => ({
      url: "/api/courses",
      payload: { title: "Pwned", description: "x", category: "Design", duration: 1 },
    }),
  },
  {
    method: "DELETE",
    path: "/api/courses/:id",
    request: (w) => ({ url: `/api/courses/${w.course.id}` }),
  },
  {
    method: "PATCH",
    path: "/api/courses/:id/publish",
    request: (w) => ({ url: `/api/courses/${w.draft.id}/publish` }),
  },
  {
    method: "GET",
    path: "/api/courses/:id/publish-checks",
    request: (w) => ({ url: `/api/courses/${w.draft.id}/publish-checks` }),
  },
  {
    method: "POST",
    path: "/api/courses/:id/modules",
    request: (w) => ({
      url: `/api/courses/${w.course.id}/modules`,
      payload: { id: moduleId(900), title: "Injected", duration: 1, videoUrl: w.video },
    }),
  },
  {
    method: "PUT",
    path: "/api/courses/:id/modules/:moduleId",
    request: (w) => ({
      url: `/api/courses/${w.course.id}/modules/${w.course.modules[1]!.id}`,
      payload: { id: w.course.modules[1]!.id, title: "Free", duration: 1, videoUrl: w.video },
    }),
  },
  {
    method: "DELETE",
    path: "/api/courses/:id/modules/:moduleId",
    request: (w) => ({ url: `/api/courses/${w.course.id}/modules/${w.course.modules[1]!.id}` }),
  },
  { method: "GET", path: "/api/users/learners", request: () => ({ url: "/api/users/learners" }) },
  {
    method: "GET",
    path: "/api/sign-on/users/:id",
    request: (w) => ({ url: `/api/sign-on/users/${w.other.id}` }),
  },
  {
    method: "GET",
    path: "/api/identity-providers",
    request: () => ({ url: "/api/identity-providers" }),
  },
  {
    method: "POST",
    path: "/api/identity-providers",
    request: () => ({ url: "/api/identity-providers", payload: OIDC_PROVIDER }),
  },
  {
    method: "GET",
    path: "/api/identity-providers/:id",
    request: () => ({ url: "/api/identity-providers/AAAAAAAAAAAAAAAAAAAAAA" }),
  },
  {
    method: "PATCH",
    path: "/api/identity-providers/:id",
    request: () => ({
      url: "/api/identity-providers/AAAAAAAAAAAAAAAAAAAAAA",
      payload: OIDC_PROVIDER,
    }),
  },
  {
    method: "DELETE",
    path: "/api/identity-providers/:id",
    request: () => ({ url: "/api/identity-providers/AAAAAAAAAAAAAAAAAAAAAA" }),
  },
  {
    method: "PATCH",
    path: "/api/users/learners/:id/restrict",
    request: (w) => ({ url: `/api/users/learners/${w.other.id}/restrict` }),
  },
  {
    method: "DELETE",
    path: "/api/users/learners/:id",
    request: (w) => ({ url: `/api/users/learners/${w.other.id}` }),
  },
  {
    method: "POST",
    path: "/api/enrollments",
    request: (w) => ({
      url: "/api/enrollments",
      payload: { userId: w.learner.id, courseId: w.draft.id },
    }),
  },
  { method: "GET", path: "/api/enrollments", request: () => ({ url: "/api/enrollments" }) },
  {
    method: "DELETE",
    path: "/api/enrollments/:id",
    request: (w) => ({ url: `/api/enrollments/${w.otherEnrollmentId}` }),
  },
  {
    method: "POST",
    path: "/api/enrollments/bulk",
    request: (w) => ({
      url: "/api/enrollments/bulk",
      payload: { courseId: w.course.id, userIds: [w.other.id] },
    }),
  },
  {
    method: "POST",
    path: "/api/users/learners/import/preview",
    request: () => ({
      url: "/api/users/learners/import/preview",
      payload: { csv: "name,email\nSneaky,sneaky-import@example.com\n" },
    }),
  },
  {
    method: "POST",
    path: "/api/users/learners/import",
    request: () => ({
      url: "/api/users/learners/import",
      payload: {
        rows: [{ line: 2, name: "Sneaky", email: "sneaky-import@example.com", courseIds: [] }],
      },
    }),
  },
  { method: "GET", path: "/api/admin/stats", request: () => ({ url: "/api/admin/stats" }) },
  {
    method: "GET",
    path: "/api/admin/setup-checklist",
    request: () => ({ url: "/api/admin/setup-checklist" }),
  },
  {
    method: "POST",
    path: "/api/admin/setup-checklist/dismiss",
    request: () => ({ url: "/api/admin/setup-checklist/dismiss" }),
  },
  { method: "GET", path: "/api/admin/reports", request: () => ({ url: "/api/admin/reports" }) },
  {
    method: "GET",
    path: "/api/admin/reports/export",
    request: () => ({ url: "/api/admin/reports/export" }),
  },
  {
    method: "POST",
    path: "/api/objects/upload",
    request: () => ({
      url: "/api/objects/upload",
      payload: { kind: "thumbnail", fileName: "x.png", contentType: "image/png", size: 10 },
    }),
  },
  {
    method: "PUT",
    path: "/api/objects/upload/:id",
    request: (w) => ({ url: `/api/objects/upload/${w.pendingUploadId}` }),
  },
  {
    method: "PUT",
    path: "/api/objects/set-acl",
    request: (w) => ({
      url: "/api/objects/set-acl",
      payload: { objectURL: `/api/objects/upload/${w.pendingUploadId}` },
    }),
  },
  // Revocation and the audit trail.
  {
    method: "POST",
    path: "/api/certificates/:id/revoke",
    request: () => ({
      url: "/api/certificates/AAAAAAAAAAAAAAAAAAAAAA/revoke",
      payload: { reason: "Issued in error" },
    }),
  },
  { method: "GET", path: "/api/audit", request: () => ({ url: "/api/audit" }) },
  { method: "GET", path: "/api/audit/verify", request: () => ({ url: "/api/audit/verify" }) },
  {
    method: "GET",
    path: "/api/audit/events",
    request: () => ({ url: "/api/audit/events" }),
  },
  // The organisation's credit catalogue.
  {
    method: "GET",
    path: "/api/credit-catalogue",
    request: () => ({ url: "/api/credit-catalogue" }),
  },
  {
    method: "POST",
    path: "/api/credit-catalogue/bodies",
    request: () => ({
      url: "/api/credit-catalogue/bodies",
      payload: { name: "ANCC", providerNumber: "", minutesPerHour: 60 },
    }),
  },
  {
    method: "PUT",
    path: "/api/credit-catalogue/bodies/:id",
    request: () => ({
      url: "/api/credit-catalogue/bodies/some-body",
      payload: { name: "ANCC", providerNumber: "", minutesPerHour: 60 },
    }),
  },
  {
    method: "DELETE",
    path: "/api/credit-catalogue/bodies/:id",
    request: () => ({ url: "/api/credit-catalogue/bodies/some-body" }),
  },
  {
    method: "POST",
    path: "/api/credit-catalogue/types",
    request: () => ({ url: "/api/credit-catalogue/types", payload: CATALOGUE_TYPE }),
  },
  {
    method: "PUT",
    path: "/api/credit-catalogue/types/:id",
    request: () => ({ url: "/api/credit-catalogue/types/some-type", payload: CATALOGUE_TYPE }),
  },
  {
    method: "POST",
    path: "/api/credit-catalogue/types/:id/confirm",
    request: () => ({ url: "/api/credit-catalogue/types/some-type/confirm" }),
  },
  {
    method: "POST",
    path: "/api/credit-catalogue/types/:id/merge",
    request: () => ({
      url: "/api/credit-catalogue/types/some-type/merge",
      payload: { intoId: "other-type" },
    }),
  },
  {
    method: "DELETE",
    path: "/api/credit-catalogue/types/:id",
    request: () => ({ url: "/api/credit-catalogue/types/some-type" }),
  },
  // Course completion and credit settings; learners' watching.
  {
    method: "PATCH",
    path: "/api/courses/:id/settings",
    request: (w) => ({
      url: `/api/courses/${w.course.id}/settings`,
      payload: { completionPolicy: "verified" },
    }),
  },
  {
    method: "GET",
    path: "/api/admin/watch/:userId/:courseId",
    request: (w) => ({ url: `/api/admin/watch/${w.learner.id}/${w.course.id}` }),
  },
  // cmi5 modules: waiving a learner's unit, and a registration's statements.
  {
    method: "POST",
    path: "/api/courses/:courseId/modules/:moduleId/cmi5/waive",
    request: (w) => ({
      url: `/api/courses/${w.course.id}/modules/${w.course.modules[0]!.id}/cmi5/waive`,
      payload: { userId: w.learner.id, auId: "https://example.com/au/1", reason: "Administrative" },
    }),
  },
  {
    method: "GET",
    path: "/api/admin/cmi5/statements",
    request: () => ({
      url: "/api/admin/cmi5/statements?registration=6f1c2a57-8d1e-4c8b-9a54-0c6c3e1e2f10",
    }),
  },
  // Learners' attempts at package modules: the list, its export, a reset, a learner's record.
  // The guard refuses before the module is looked at, whatever it plays.
  {
    method: "GET",
    path: "/api/courses/:courseId/modules/:moduleId/package/attempts",
    request: (w) => ({
      url: `/api/courses/${w.course.id}/modules/${w.course.modules[0]!.id}/package/attempts?format=csv`,
    }),
  },
  {
    method: "POST",
    path: "/api/courses/:courseId/modules/:moduleId/package/attempts/:userId/reset",
    request: (w) => ({
      url: `/api/courses/${w.course.id}/modules/${w.course.modules[0]!.id}/package/attempts/${w.other.id}/reset`,
    }),
  },
  {
    method: "GET",
    path: "/api/courses/:courseId/modules/:moduleId/package/preview",
    request: (w) => ({
      url: `/api/courses/${w.course.id}/modules/${w.course.modules[0]!.id}/package/preview`,
    }),
  },
  {
    method: "GET",
    path: "/api/admin/package-progress/:userId/:courseId",
    request: (w) => ({ url: `/api/admin/package-progress/${w.other.id}/${w.course.id}` }),
  },
  // Question banks, exam settings, extra attempts and exam results.
  {
    method: "GET",
    path: "/api/courses/:id/questions",
    request: (w) => ({ url: `/api/courses/${w.draft.id}/questions` }),
  },
  {
    method: "POST",
    path: "/api/courses/:id/questions",
    request: (w) => ({ url: `/api/courses/${w.draft.id}/questions`, payload: questionBody(90) }),
  },
  {
    method: "PUT",
    path: "/api/courses/:id/questions/:questionId",
    request: (w) => ({
      url: `/api/courses/${w.draft.id}/questions/${w.questionId}`,
      payload: questionBody(91),
    }),
  },
  {
    method: "DELETE",
    path: "/api/courses/:id/questions/:questionId",
    request: (w) => ({ url: `/api/courses/${w.draft.id}/questions/${w.questionId}` }),
  },
  {
    method: "PUT",
    path: "/api/courses/:id/questions/order",
    request: (w) => ({
      url: `/api/courses/${w.draft.id}/questions/order`,
      payload: { questionIds: [w.questionId] },
    }),
  },
  {
    method: "POST",
    path: "/api/courses/:id/questions/import",
    request: (w) => ({
      url: `/api/courses/${w.draft.id}/questions/import`,
      payload: {
        csv: `${QUESTION_CSV_COLUMNS.join(",")}\nfinal,,single,Imported?,Yes,No,,,,,,,A,,,,,,,,,\n`,
        dryRun: false,
      },
    }),
  },
  {
    method: "GET",
    path: "/api/courses/:id/exam-settings",
    request: (w) => ({ url: `/api/courses/${w.draft.id}/exam-settings` }),
  },
  {
    method: "PUT",
    path: "/api/courses/:id/exam-settings",
    request: (w) => ({
      url: `/api/courses/${w.draft.id}/exam-settings`,
      payload: { ...DEFAULT_EXAM_SETTINGS, questionCount: 1 },
    }),
  },
  {
    method: "POST",
    path: "/api/enrollments/:id/exam/extra-attempt",
    request: (w) => ({ url: `/api/enrollments/${w.otherEnrollmentId}/exam/extra-attempt` }),
  },
  {
    method: "GET",
    path: "/api/courses/:id/exam/results",
    request: (w) => ({ url: `/api/courses/${w.course.id}/exam/results?format=csv` }),
  },
  {
    method: "PUT",
    path: "/api/courses/:id/activity",
    request: (w) => ({
      url: `/api/courses/${w.course.id}/activity`,
      payload: { ...DEFAULT_ACTIVITY, acknowledgementRequired: true },
    }),
  },
  {
    method: "PUT",
    path: "/api/courses/:id/credit-settings",
    request: (w) => ({
      url: `/api/courses/${w.course.id}/credit-settings`,
      payload: { ...DEFAULT_CREDIT_SETTINGS, signatureId: undefined, licenceRequired: true },
    }),
  },
  {
    method: "PUT",
    path: "/api/courses/:id/credit",
    request: (w) => ({
      url: `/api/courses/${w.course.id}/credit`,
      payload: {
        bodies: [{ name: "ANCC", providerNumber: "P-1" }],
        types: [
          {
            name: "contact hours",
            amount: 1,
            accreditingBody: "ANCC",
            accreditationStatement: "",
            designationStatement: "",
            claimStep: null,
            licenceRequired: false,
          },
        ],
      },
    }),
  },
  {
    method: "PUT",
    path: "/api/courses/:id/signature",
    request: (w) => ({
      url: `/api/courses/${w.course.id}/signature`,
      payload: { dataUrl: "data:image/png;base64,iVBORw0KGgo=" },
    }),
  },
  {
    method: "DELETE",
    path: "/api/courses/:id/signature",
    request: (w) => ({ url: `/api/courses/${w.course.id}/signature` }),
  },
  {
    method: "PUT",
    path: "/api/courses/:id/evaluation",
    request: (w) => ({
      url: `/api/courses/${w.course.id}/evaluation`,
      payload: { items: [{ kind: "text", text: "Injected", required: true }] },
    }),
  },
  {
    method: "PUT",
    path: "/api/courses/:id/steps/:step",
    request: (w) => ({
      url: `/api/courses/${w.course.id}/steps/commitment`,
      payload: { required: true, items: [{ kind: "text", text: "Injected", required: true }] },
    }),
  },
  {
    method: "GET",
    path: "/api/courses/:id/steps/:step/answers",
    request: (w) => ({ url: `/api/courses/${w.course.id}/steps/commitment/answers?format=csv` }),
  },
  {
    method: "GET",
    path: "/api/courses/:id/evaluation/results",
    request: (w) => ({ url: `/api/courses/${w.course.id}/evaluation/results?format=csv` }),
  },
  {
    method: "GET",
    path: "/api/courses/:id/credit-report",
    request: (w) => ({ url: `/api/courses/${w.course.id}/credit-report` }),
  },
  {
    method: "PUT",
    path: "/api/courses/:id",
    request: (w) => ({
      url: `/api/courses/${w.course.id}`,
      payload: { title: "Pwned", description: "x", category: "Design", duration: 1 },
    }),
  },
  {
    method: "PATCH",
    path: "/api/courses/:id/unpublish",
    request: (w) => ({ url: `/api/courses/${w.course.id}/unpublish` }),
  },
  {
    method: "PUT",
    path: "/api/courses/:id/modules/order",
    request: (w) => ({
      url: `/api/courses/${w.course.id}/modules/order`,
      payload: { moduleIds: [...w.course.modules].reverse().map((m) => m.id) },
    }),
  },
  {
    method: "GET",
    path: "/api/courses/:id/captions",
    request: (w) => ({ url: `/api/courses/${w.course.id}/captions` }),
  },
  {
    method: "PUT",
    path: "/api/courses/:id/modules/:moduleId/captions/:language",
    request: (w) => ({
      url: `/api/courses/${w.course.id}/modules/${moduleId(1)}/captions/en`,
      payload: {
        label: "English",
        fileName: "en.vtt",
        contentType: "text/vtt",
        data: Buffer.from("WEBVTT\n\n00:00.000 --> 00:01.000\nInjected\n").toString("base64"),
      },
    }),
  },
  {
    method: "DELETE",
    path: "/api/courses/:id/modules/:moduleId/captions/:language",
    request: (w) => ({ url: `/api/courses/${w.course.id}/modules/${moduleId(1)}/captions/en` }),
  },
  {
    method: "PUT",
    path: "/api/courses/:id/modules/:moduleId/transcript",
    request: (w) => ({
      url: `/api/courses/${w.course.id}/modules/${moduleId(1)}/transcript`,
      payload: { transcript: "Injected" },
    }),
  },
  {
    method: "GET",
    path: "/api/admin/reminder-settings",
    request: () => ({ url: "/api/admin/reminder-settings" }),
  },
  {
    method: "PUT",
    path: "/api/admin/reminder-settings",
    request: () => ({
      url: "/api/admin/reminder-settings",
      payload: { inactivityDays: 1, expiryReminders: true },
    }),
  },
  {
    method: "PUT",
    path: "/api/admin/organisation",
    request: () => ({
      url: "/api/admin/organisation",
      payload: {
        name: "Impostor Academy",
        logoPath: null,
        address: "",
        contactEmail: "",
        dateFormat: "iso",
      },
    }),
  },
  {
    method: "GET",
    path: "/api/courses/:id/reporting",
    request: (w) => ({ url: `/api/courses/${w.course.id}/reporting` }),
  },
  {
    method: "PUT",
    path: "/api/courses/:id/reporting",
    request: (w) => ({ url: `/api/courses/${w.course.id}/reporting`, payload: { types: [] } }),
  },
  {
    method: "GET",
    path: "/api/admin/reports/regulators",
    request: () => ({ url: "/api/admin/reports/regulators" }),
  },
  {
    method: "PUT",
    path: "/api/admin/reports/regulators/:regulator",
    request: () => ({ url: "/api/admin/reports/regulators/pars", payload: { deadlineDays: 1 } }),
  },
  {
    method: "GET",
    path: "/api/admin/reports/regulators/:regulator/claims",
    request: () => ({ url: "/api/admin/reports/regulators/pars/claims" }),
  },
  {
    method: "POST",
    path: "/api/admin/reports/regulators/:regulator/files",
    request: (w) => ({
      url: "/api/admin/reports/regulators/pars/files",
      payload: { courseId: w.course.id, from: "2026-01-01", to: "2026-12-31" },
    }),
  },
  {
    method: "GET",
    path: "/api/admin/reports/regulators/:regulator/connection",
    request: () => ({ url: "/api/admin/reports/regulators/cpe_monitor/connection" }),
  },
  {
    method: "PUT",
    path: "/api/admin/reports/regulators/:regulator/connection",
    request: () => ({
      url: "/api/admin/reports/regulators/cpe_monitor/connection",
      payload: { providerNumber: "0197" },
    }),
  },
  {
    method: "POST",
    path: "/api/admin/reports/regulators/cpe_monitor/submissions",
    request: (w) => ({
      url: "/api/admin/reports/regulators/cpe_monitor/submissions",
      payload: { courseId: w.course.id, from: "2026-01-01", to: "2026-12-31" },
    }),
  },
  {
    method: "POST",
    path: "/api/admin/reports/regulators/pars/activity-files",
    request: (w) => ({
      url: "/api/admin/reports/regulators/pars/activity-files",
      payload: { courseId: w.course.id },
    }),
  },
  {
    method: "GET",
    path: "/api/admin/reports/regulators/:regulator/files",
    request: () => ({ url: "/api/admin/reports/regulators/pars/files" }),
  },
  {
    method: "GET",
    path: "/api/admin/reports/regulators/:regulator/files/:fileId/download",
    request: () => ({
      url: "/api/admin/reports/regulators/pars/files/AAAAAAAAAAAAAAAAAAAAAA/download",
    }),
  },
  {
    method: "POST",
    path: "/api/admin/reports/regulators/:regulator/files/:fileId/submit",
    request: () => ({
      url: "/api/admin/reports/regulators/pars/files/AAAAAAAAAAAAAAAAAAAAAA/submit",
    }),
  },
  // An administrator's own second factors and the organisation's rule.
  { method: "GET", path: "/api/second-factor", request: () => ({ url: "/api/second-factor" }) },
  {
    method: "POST",
    path: "/api/second-factor/totp",
    request: () => ({ url: "/api/second-factor/totp" }),
  },
  {
    method: "POST",
    path: "/api/second-factor/passkey-options",
    request: () => ({ url: "/api/second-factor/passkey-options" }),
  },
  {
    method: "POST",
    path: "/api/second-factor/factors",
    request: () => ({
      url: "/api/second-factor/factors",
      payload: { method: "totp", code: "123456" },
    }),
  },
  {
    method: "POST",
    path: "/api/second-factor/factors/:id/remove",
    request: () => ({
      url: "/api/second-factor/factors/AAAAAAAAAAAAAAAAAAAAAA/remove",
      payload: { password: "correct horse" },
    }),
  },
  {
    method: "POST",
    path: "/api/second-factor/recovery-codes",
    request: () => ({
      url: "/api/second-factor/recovery-codes",
      payload: { password: "correct horse" },
    }),
  },
  {
    method: "GET",
    path: "/api/admin/second-factor/policy",
    request: () => ({ url: "/api/admin/second-factor/policy" }),
  },
  {
    method: "PUT",
    path: "/api/admin/second-factor/policy",
    request: () => ({ url: "/api/admin/second-factor/policy", payload: { required: false } }),
  },
];

/** Routes anyone may call (sign-in, setup, probes, health). */
const PUBLIC_ROUTES = [
  "GET /api/health",
  "GET /api/ready",
  "GET /api/config",
  "POST /api/auth/login",
  "POST /api/auth/setup-password",
  "POST /api/auth/setup-admin-password",
  "POST /api/auth/check-email",
  "POST /api/auth/check-password-setup",
  "POST /api/auth/logout",
  "POST /api/auth/reset-password",
  "POST /api/auth/reset-password/confirm",
  "POST /api/auth/resend-invitation",
  // Tells only the holder of a live invitation token whom it invites.
  "POST /api/auth/invitation",
  // Sign-in with an identity-service ID token, which the server verifies.
  "POST /api/auth/firebase-sync",
  // A sign-in's second step: only the browser holding its pending step's cookie gets further.
  "POST /api/auth/second-factor/passkey-options",
  "POST /api/auth/second-factor/verify",
  "POST /api/auth/second-factor/setup/:method",
  "POST /api/auth/second-factor/setup",
  // Anyone holding a certificate may check it, with its official's signature.
  "GET /api/certificates/verify/:code",
  // The check of its portable credential, and the revocation lists every credential points to.
  "GET /api/certificates/verify/:code/credential",
  "GET /api/credentials/status/:list",
  "GET /api/signatures/:id",
  // The issuing organisation and its logo, which every certificate's page prints.
  "GET /api/organisation",
  "GET /api/organisation/logos/:id",
  // A published course's image: its credentials' achievement image, shown by any wallet.
  "GET /objects/course-images/:courseId",
  // A reminder's unsubscribe link: the token in it names the learner.
  "POST /api/reminders/unsubscribe",
  "GET /api/reminders/unsubscribe/one-click",
  "POST /api/reminders/unsubscribe/one-click",
  // Single sign-on: the sign-in page's providers, and the round trip through one
  // (linking, the `?purpose=link` start, needs a session and checks it itself).
  "GET /api/sign-on/providers",
  "POST /api/sign-on/discover",
  "GET /api/sign-on/:id/start",
  "GET /api/sign-on/:id/oidc/callback",
  // SAML: the identity provider's post (bound to the browser's own request), Credo's
  // metadata for the provider to read, and the script of the page that posts again.
  "POST /api/sign-on/:id/saml/acs",
  "GET /api/sign-on/:id/saml/metadata",
  "GET /api/sign-on/saml/repost.js",
];

/** Routes for any signed-in user, each checking ownership itself. */
const SIGNED_IN_ROUTES = [
  "GET /api/auth/me",
  "PUT /api/auth/profile",
  // The user's own sessions, listed and ended from Profile.
  "GET /api/auth/sessions",
  "DELETE /api/auth/sessions/:id",
  "POST /api/auth/sessions/end-others",
  // The identity providers the user's own account is linked to.
  "GET /api/sign-on/links",
  "GET /api/courses",
  "GET /api/courses/:id",
  "GET /api/enrollments/user/:userId",
  "POST /api/progress/update",
  "GET /objects/uploads/:id",
  // A learner's own certificates and transcript; administrators any.
  "GET /api/certificates/mine",
  "GET /api/certificates/:id/pdf",
  "GET /api/certificates/:code/credential",
  "GET /api/learners/:id/transcript",
  "GET /api/learners/:id/transcript.csv",
  "GET /api/learners/:id/transcript.pdf",
  // The learner's own watching (learners only, of their own enrollments).
  "POST /api/progress/heartbeat",
  "GET /api/progress/watch/:courseId",
  // The learner's own run of a package module (learners only, their own attempt).
  "POST /api/courses/:courseId/modules/:moduleId/package/launch",
  "GET /api/courses/:courseId/modules/:moduleId/package/items/:itemId",
  "PUT /api/courses/:courseId/modules/:moduleId/package/items/:itemId",
  "POST /api/courses/:courseId/modules/:moduleId/package/seat",
  // A cmi5 module's units: launched and followed by its enrolled learners only.
  "POST /api/courses/:courseId/modules/:moduleId/cmi5/launch",
  "GET /api/courses/:courseId/modules/:moduleId/cmi5",
  // Review questions, the final exam and completion steps (enrolled learners, own attempts).
  "GET /api/courses/:id/modules/:moduleId/review",
  "POST /api/courses/:id/modules/:moduleId/review",
  "GET /api/courses/:id/exam",
  "POST /api/courses/:id/exam/attempts",
  "GET /api/exam-attempts/:attemptId",
  "PUT /api/exam-attempts/:attemptId/answers",
  "POST /api/exam-attempts/:attemptId/submit",
  "GET /api/courses/:id/completion",
  // The credit claim (enrolled learners, their own records; administrators read any course).
  "GET /api/courses/:id/activity",
  "POST /api/courses/:id/acknowledge",
  "GET /api/courses/:id/evaluation",
  "POST /api/courses/:id/evaluation",
  "GET /api/courses/:id/steps/:step",
  "POST /api/courses/:id/steps/:step",
  "POST /api/courses/:id/attest",
  "GET /api/profile/licence",
  "PUT /api/profile/licence",
  // The learner's professional identifiers, whole or as regulators need them (learners
  // only, their own).
  "GET /api/me/identifiers",
  "PATCH /api/me/identifiers",
  "GET /api/me/regulator-ids",
  "PUT /api/me/regulator-ids",
  // A module's captions and transcript, under the same rule as its video.
  "GET /api/courses/:id/modules/:moduleId/media",
  "GET /api/courses/:id/modules/:moduleId/captions/:language.vtt",
];

/** The routes the app really has, from its OpenAPI document, as "METHOD /path/:param". */
function routesOf(ctx: TestContext): string[] {
  const doc = (ctx.app as unknown as { swagger(): { paths: Record<string, object> } }).swagger();
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map(
      (method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`,
    ),
  );
}

/** A concrete URL for a route pattern: every parameter filled with a plausible value. */
function concrete(route: string): { method: Method; url: string } {
  const [method, path] = route.split(" ") as [Method, string];
  const url = path.replace(":moduleId", moduleId(1)).replace(/:\w+/g, "AAAAAAAAAAAAAAAAAAAAAAAA");
  return { method, url };
}

describe("access control attacks", () => {
  const ctx = useTestApp();
  const videoPath = useSharedVideo(ctx);

  /** Two learners in one published course (the other has finished module 1) and a draft. */
  async function world(): Promise<World> {
    const admin = await quickAdmin(ctx);
    const adminCookie = await sessionCookie(ctx, admin);
    const learner = await quickLearner(ctx, { name: "Lee Learner" });
    const other = await quickLearner(ctx, { name: "Olive Other" });
    const video = await videoPath(adminCookie);
    const course = await buildPublishedCourse(ctx, adminCookie, { video, modules: 2 });
    const draft = await buildPublishedCourse(ctx, adminCookie, { video, modules: 1, draft: true });
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    const otherEnrollment = await enrollViaApi(ctx, adminCookie, other.id, course.id);
    const otherCookie = await sessionCookie(ctx, other);
    await completeViaApi(ctx, otherCookie, other.id, course, 1);
    const upload = await requestUpload(ctx, adminCookie, {
      kind: "thumbnail",
      contentType: "image/png",
      size: 10,
    });
    const pendingUploadId = (upload.json().uploadURL as string).split("/").pop()!;
    const question = await addQuestion(ctx, adminCookie, draft.id, questionBody(1));
    return {
      questionId: question.id,
      adminCookie,
      learnerCookie: await sessionCookie(ctx, learner),
      learner,
      other,
      course,
      draft,
      otherEnrollmentId: otherEnrollment.id,
      pendingUploadId,
      video,
    };
  }

  function send(method: Method | "HEAD", url: string, cookie?: string, more: InjectOptions = {}) {
    return ctx.app.inject({
      ...more,
      method,
      url,
      headers: { ...(cookie ? { cookie } : {}), ...(more.headers ?? {}) },
    });
  }

  it("classifies every route of the app: a new route must be added to this suite", () => {
    const known = [
      ...ADMIN_ROUTES.map((r) => `${r.method} ${r.path}`),
      ...PUBLIC_ROUTES,
      ...SIGNED_IN_ROUTES,
    ];
    expect(routesOf(ctx).sort()).toEqual(known.sort());
  });

  it("refuses every administrator route to anonymous users (401) and learners (403), also via method override", async () => {
    // A refusal changes nothing, so one world serves every route, and the database after
    // them all is the one before.
    const w = await world();
    const before = await snapshotAll(ctx);
    for (const route of ADMIN_ROUTES) {
      const label = `${route.method} ${route.path}`;
      const { url, payload } = route.request(w);
      const options = payload ? { payload } : {};
      const anonymous = await send(route.method, url, undefined, options);
      expectRefusal(anonymous, 401, `${label}, anonymous`);
      const learner = await send(route.method, url, w.learnerCookie, options);
      expectRefusal(learner, 403, `${label}, learner`);
      // A learner's own method in disguise: no override turns it into something else.
      const disguised = await send(
        route.method,
        `${url}?_method=GET&_method=POST`,
        w.learnerCookie,
        {
          ...options,
          headers: { "x-http-method-override": "GET", "x-method-override": "GET" },
        },
      );
      expectRefusal(disguised, 403, `${label}, method override`);
      if (route.method === "GET") {
        const head = await send("HEAD", url, w.learnerCookie);
        expect(head.statusCode, `${label}, HEAD`).toBe(403);
      }
      for (const response of [anonymous, learner, disguised]) {
        expect(response.body, label).not.toContain(w.other.email);
        expect(response.headers["content-disposition"], label).toBeUndefined();
      }
    }
    await expectUnchanged(ctx, before);
  });

  it("refuses every non-public route of the app to anonymous users, whatever it is", async () => {
    await world();
    const before = await snapshotAll(ctx);
    for (const route of routesOf(ctx).filter((r) => !PUBLIC_ROUTES.includes(r))) {
      const { method, url } = concrete(route);
      const response = await send(method, url, undefined, method === "GET" ? {} : { payload: {} });
      expectRefusal(response, 401, route);
    }
    await expectUnchanged(ctx, before);
  });

  it("never turns a GET into a DELETE through X-HTTP-Method-Override or _method", async () => {
    const w = await world();
    const before = await snapshotAll(ctx);
    const override = {
      "x-http-method-override": "DELETE",
      "x-method-override": "DELETE",
      "x-http-method": "DELETE",
    };
    // An administrator's browser tricked into a GET: the course is read, not deleted.
    const read = await send("GET", `/api/courses/${w.course.id}?_method=DELETE`, w.adminCookie, {
      headers: override,
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().id).toBe(w.course.id);
    // A learner aiming at another learner: there is no such GET route at all.
    const learner = await send(
      "GET",
      `/api/users/learners/${w.other.id}?_method=DELETE`,
      w.learnerCookie,
      { headers: override },
    );
    expectRefusal(learner, 404);
    const post = await send("POST", `/api/courses/${w.course.id}?_method=DELETE`, w.adminCookie, {
      headers: override,
      payload: {},
    });
    expect(post.statusCode).toBe(404);
    await expectUnchanged(ctx, before);
    expect(await userById(ctx, w.other.id)).toBeDefined();
  });

  describe("other learners' data", () => {
    it("never shows a learner another learner's enrollments; unknown ids answer the same", async () => {
      const w = await world();
      const before = await snapshotAll(ctx);
      const theirs = await send("GET", `/api/enrollments/user/${w.other.id}`, w.learnerCookie);
      const nobody = await send(
        "GET",
        "/api/enrollments/user/AAAAAAAAAAAAAAAAAAAAAA",
        w.learnerCookie,
      );
      expectRefusal(theirs, 403);
      expect({ status: nobody.statusCode, body: nobody.body }).toEqual({
        status: theirs.statusCode,
        body: theirs.body,
      });
      expect(theirs.body).not.toContain(w.other.email);
      await expectUnchanged(ctx, before);
    });

    it("never lets a learner record progress as another learner, whatever the body claims", async () => {
      const w = await world();
      const before = await snapshotAll(ctx);
      for (const body of [
        { userId: w.other.id, courseId: w.course.id, moduleId: w.course.modules[1]!.id },
        {
          userId: w.other.id,
          courseId: w.course.id,
          moduleId: w.course.modules[1]!.id,
          progress: 100,
        },
      ]) {
        const response = await send("POST", "/api/progress/update", w.learnerCookie, {
          payload: body,
        });
        expectRefusal(response, 403);
      }
      // Forged completion state in the body is refused as a shape error.
      const forged = await send("POST", "/api/progress/update", w.learnerCookie, {
        payload: {
          userId: w.learner.id,
          courseId: w.course.id,
          moduleId: w.course.modules[0]!.id,
          isCompleted: true,
          completedModules: w.course.modules.map((m) => m.id),
          progress: "100",
        },
      });
      expectRefusal(forged, 400);
      await expectUnchanged(ctx, before);
    });

    it("never lets a learner change another learner's profile through userId", async () => {
      const w = await world();
      const before = await snapshotAll(ctx);
      const response = await send("PUT", "/api/auth/profile", w.learnerCookie, {
        payload: { name: "Hijacked", phone: "666", userId: w.other.id },
      });
      expectRefusal(response, 403);
      await expectUnchanged(ctx, before);
      expect((await userById(ctx, w.other.id))?.name).toBe("Olive Other");
    });
  });

  describe("mass assignment", () => {
    it.each([
      ["role", "admin"],
      ["status", "active"],
      ["email", "new-address@example.com"],
      ["isRegisteredByAdmin", true],
      ["passwordSetup", false],
      ["passwordHash", "scrypt$1$1$1$AAAA$AAAA"],
      ["id", "AAAAAAAAAAAAAAAAAAAAAA"],
      ["createdAt", "2000-01-01T00:00:00.000Z"],
    ])("refuses a profile update that sets %s (400), changing nothing", async (field, value) => {
      const w = await world();
      const before = await snapshotAll(ctx);
      const response = await send("PUT", "/api/auth/profile", w.learnerCookie, {
        payload: { name: "Lee Learner", [field]: value },
      });
      expectRefusal(response, 400);
      await expectUnchanged(ctx, before);
    });

    it("lets no administrator request forge state: role, progress, owner or publication", async () => {
      const w = await world();
      const before = await snapshotAll(ctx);
      const register = await send("POST", "/api/auth/register", w.adminCookie, {
        payload: { email: "x@example.com", name: "X", role: "admin" },
      });
      expectRefusal(register, 400, "register role");
      const enrollment = await send("POST", "/api/enrollments", w.adminCookie, {
        payload: { userId: w.other.id, courseId: w.draft.id, progress: 100, isCompleted: true },
      });
      expectRefusal(enrollment, 400, "enrollment progress");
      const withModules = await send("POST", "/api/courses", w.adminCookie, {
        payload: {
          title: "T",
          description: "D",
          category: "Design",
          duration: 1,
          modules: [
            { id: moduleId(nextModuleNumber()), title: "m", duration: 1, videoUrl: w.video },
          ],
        },
      });
      expectRefusal(withModules, 400, "course modules");
      await expectUnchanged(ctx, before);
      // Fields the server owns are ignored: it stays a draft, owned by the caller.
      const created = await send("POST", "/api/courses", w.adminCookie, {
        payload: {
          title: "T",
          description: "D",
          category: "Design",
          duration: 1,
          createdBy: w.learner.id,
          isPublished: true,
          id: "chosen-id",
          createdAt: "2000-01-01T00:00:00.000Z",
        },
      });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({ isPublished: false });
      expect(created.json().id).not.toBe("chosen-id");
      expect(created.json().createdBy).not.toBe(w.learner.id);
      expect(created.json().createdAt).not.toMatch(/^2000/);
    });
  });

  describe("locked and unpublished content", () => {
    it("refuses a locked module's video (403); a draft's or another course's like a missing one (404)", async () => {
      const w = await world();
      const admin = w.adminCookie;
      const upload = () => uploadObject(ctx, admin, { kind: "video", file: "sample-video-2.mp4" });
      const [lockedVideo, draftVideo, foreignVideo] = [
        await upload(),
        await upload(),
        await upload(),
      ];
      const course = await createCourse(ctx, admin, { title: "Locked second module" });
      await addModule(ctx, admin, course.id, validModule(w.video, nextModuleNumber()));
      const locked = await addModule(
        ctx,
        admin,
        course.id,
        validModule(lockedVideo, nextModuleNumber()),
      );
      await publish(ctx, admin, course.id);
      await enrollViaApi(ctx, admin, w.learner.id, course.id);
      const draft = await createCourse(ctx, admin, { title: "Draft" });
      await addModule(ctx, admin, draft.id, validModule(draftVideo, nextModuleNumber()));
      const foreign = await buildPublishedCourse(ctx, admin, { video: foreignVideo, modules: 1 });
      await enrollViaApi(ctx, admin, w.other.id, foreign.id);
      const before = await snapshotAll(ctx);

      expectRefusal(await send("GET", lockedVideo, w.learnerCookie), 403, "locked video");
      const complete = await send("POST", "/api/progress/update", w.learnerCookie, {
        payload: { userId: w.learner.id, courseId: course.id, moduleId: locked.id },
      });
      expectRefusal(complete, 409, "locked module");
      const hidden = [];
      for (const path of [draftVideo, foreignVideo, "/objects/uploads/AAAAAAAAAAAAAAAAAAAAAAAA"]) {
        const response = await send("GET", path, w.learnerCookie, {
          headers: { range: "bytes=0-99" },
        });
        expectRefusal(response, 404, path);
        hidden.push(response.body);
      }
      expect(new Set(hidden).size).toBe(1);
      await expectUnchanged(ctx, before);
    });

    it("answers a draft, a course not enrolled in and a missing course alike (404)", async () => {
      const w = await world();
      const admin = w.adminCookie;
      const notEnrolled = await buildPublishedCourse(ctx, admin, { video: w.video, modules: 1 });
      const before = await snapshotAll(ctx);
      const answers = [];
      for (const id of [w.draft.id, notEnrolled.id, "AAAAAAAAAAAAAAAAAAAAAA"]) {
        const response = await send("GET", `/api/courses/${id}`, w.learnerCookie);
        expectRefusal(response, 404, id);
        answers.push(response.body);
        const progress = await send("POST", "/api/progress/update", w.learnerCookie, {
          payload: { userId: w.learner.id, courseId: id, moduleId: moduleId(1) },
        });
        expectRefusal(progress, 403, id);
        answers.push(progress.body);
      }
      expect(new Set(answers).size).toBe(2);
      const list = await send("GET", "/api/courses", w.learnerCookie);
      expect(list.json().map((c: Course) => c.id)).not.toContain(w.draft.id);
      await expectUnchanged(ctx, before);
    });
  });
});
