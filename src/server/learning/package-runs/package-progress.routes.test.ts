import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type {
  AuditEventsPage,
  Course,
  LearnerPackageProgress,
  PackageProgressRow,
} from "../../../contract";
import { modules } from "../../catalogue/courses/courses.table";
import {
  addModule,
  completeModule,
  createCourse,
  enroll,
  moduleId,
  validModule,
} from "../../testing/courses";
import { parseCsv } from "../../testing/csv";
import { expectErrorBody } from "../../testing/errors";
import {
  call,
  nextModuleNumber,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";
import { uploadObject } from "../../testing/uploads";
import { cmi5Package, scormZip } from "../../testing/zips";
import { createPackageRunsRepository } from "./package-runs.repository";
import { type PackageAttemptRow, packageAttempts } from "./package-runs.table";

type Report = Partial<
  Pick<
    PackageAttemptRow,
    | "completion"
    | "success"
    | "scoreScaled"
    | "reportedSeconds"
    | "seatSeconds"
    | "lastSeatAt"
    | "satisfiedAt"
  >
>;

describe("package modules' attempts, for administrators", () => {
  const ctx = useTestApp();
  const videoPath = useSharedVideo(ctx);

  /** A draft course with a video module and a SCORM module, and its admin's cookie. */
  async function setUp() {
    const admin = await quickAdmin(ctx);
    const cookie = await signInAs(ctx, admin);
    const course = await createCourse(ctx, cookie, { title: "Golf for beginners" });
    const video = await addModule(
      ctx,
      cookie,
      course.id,
      validModule(await videoPath(cookie), nextModuleNumber()),
    );
    const packagePath = await uploadObject(ctx, cookie, { kind: "package", bytes: scormZip() });
    const scorm = await addModule(ctx, cookie, course.id, {
      ...validModule("", nextModuleNumber()),
      title: "Golf explained",
      videoUrl: undefined,
      kind: "scorm",
      packagePath,
    });
    const [row] = await ctx.database.db
      .select({ packageId: modules.packageId })
      .from(modules)
      .where(eq(modules.id, scorm.id));
    return { admin, cookie, course, video, scorm, packageId: row!.packageId! };
  }

  type Setup = Awaited<ReturnType<typeof setUp>>;

  /** An enrolled learner (straight in the table: enrolling is another feature's). */
  async function learnerIn(course: Course, name: string, email?: string) {
    const learner = await quickLearner(ctx, {
      name,
      email: email ?? `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`,
    });
    const enrollment = await enroll(ctx, learner.id, course.id);
    return { ...learner, enrollmentId: enrollment.id };
  }

  /**
   * The learner launches the module (an attempt opens, as the run time opens it) and the
   * content reports `report` to it.
   */
  async function attempt(s: Setup, userId: string, report: Report = {}) {
    const { db } = ctx.database;
    const row = await createPackageRunsRepository(db).open({
      userId,
      courseId: s.course.id,
      moduleId: s.scorm.id,
      packageId: s.packageId,
    });
    if (Object.keys(report).length) {
      await db.update(packageAttempts).set(report).where(eq(packageAttempts.id, row.id));
    }
    return row;
  }

  const listUrl = (s: Setup, query = "", moduleId = s.scorm.id) =>
    `/api/courses/${s.course.id}/modules/${moduleId}/package/attempts${query}`;
  const resetUrl = (s: Setup, userId: string, moduleId = s.scorm.id) =>
    `/api/courses/${s.course.id}/modules/${moduleId}/package/attempts/${userId}/reset`;

  async function list(s: Setup, query = ""): Promise<PackageProgressRow[]> {
    const response = await call(ctx, "GET", listUrl(s, query), { cookie: s.cookie });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as PackageProgressRow[];
  }

  const byName = (rows: PackageProgressRow[]) =>
    Object.fromEntries(rows.map((r) => [r.learner.name, r]));

  it("lists every enrolled learner with the status, score, times and attempts of the current attempt", async () => {
    const s = await setUp();
    const fresh = await learnerIn(s.course, "Ada Fresh");
    const started = await learnerIn(s.course, "Ben Started");
    const completed = await learnerIn(s.course, "Cy Completed");
    const passed = await learnerIn(s.course, "Di Passed");
    const failed = await learnerIn(s.course, "Ed Failed");
    const moved = await learnerIn(s.course, "Flo MovedOn");
    const seatAt = new Date("2026-03-02T10:00:00.000Z");
    await attempt(s, started.id, { completion: "incomplete", reportedSeconds: 61.4 });
    await attempt(s, completed.id, {
      completion: "completed",
      success: "unknown",
      reportedSeconds: 300,
      seatSeconds: 312.6,
      satisfiedAt: new Date(),
    });
    await completeModule(ctx, completed.enrollmentId, s.scorm.id);
    await attempt(s, passed.id, {
      completion: "completed",
      success: "passed",
      scoreScaled: 0.856,
      seatSeconds: 95,
      lastSeatAt: seatAt,
    });
    await attempt(s, failed.id, { completion: "completed", success: "failed", scoreScaled: 0.4 });
    // A cmi5 moveOn of NotApplicable meets the rule with neither completion nor success.
    await attempt(s, moved.id, { satisfiedAt: new Date() });

    const rows = byName(await list(s));
    expect(Object.keys(rows)).toEqual([
      "Ada Fresh",
      "Ben Started",
      "Cy Completed",
      "Di Passed",
      "Ed Failed",
      "Flo MovedOn",
    ]);
    expect(rows["Ada Fresh"]).toEqual({
      learner: { id: fresh.id, name: "Ada Fresh", email: "ada.fresh@example.com" },
      status: "Not started",
      scorePercent: null,
      reportedSeconds: 0,
      seatSeconds: 0,
      attempts: 0,
      currentAttempt: null,
      lastActivityAt: null,
      moduleCompleted: false,
      moduleCompletedAt: null,
    });
    expect(rows["Ben Started"]).toMatchObject({
      status: "In progress",
      reportedSeconds: 61,
      attempts: 1,
      currentAttempt: 1,
      moduleCompleted: false,
    });
    expect(rows["Ben Started"]!.lastActivityAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(rows["Cy Completed"]).toMatchObject({
      status: "Completed",
      scorePercent: null,
      reportedSeconds: 300,
      seatSeconds: 313,
      moduleCompleted: true,
    });
    expect(rows["Cy Completed"]!.moduleCompletedAt).toMatch(/Z$/);
    expect(rows["Di Passed"]).toMatchObject({
      status: "Passed",
      scorePercent: 86,
      seatSeconds: 95,
    });
    expect(rows["Ed Failed"]).toMatchObject({ status: "Failed", scorePercent: 40 });
    expect(rows["Flo MovedOn"]).toMatchObject({ status: "Completed" });
    // Only this course's learners: one enrolled elsewhere is not listed.
    const other = await createCourse(ctx, s.cookie, { title: "Another" });
    await learnerIn(other, "Gus Elsewhere");
    expect((await list(s)).map((r) => r.learner.name)).not.toContain("Gus Elsewhere");
  });

  it("pages with a cursor, sorts by name or email either way, and searches name and email", async () => {
    const s = await setUp();
    await learnerIn(s.course, "carla Diaz", "zed@example.com");
    await learnerIn(s.course, "Bruno Alves", "yan@example.com");
    await learnerIn(s.course, "Aïsha Khan", "xia@example.com");
    await learnerIn(s.course, "Dora 50% Off", "wil@example.com");

    const first = await call(ctx, "GET", listUrl(s, "?limit=2"), { cookie: s.cookie });
    expect(first.statusCode).toBe(200);
    expect((first.json() as PackageProgressRow[]).map((r) => r.learner.name)).toEqual([
      "Aïsha Khan",
      "Bruno Alves",
    ]);
    const cursor = first.headers["x-next-cursor"] as string;
    expect(cursor).toBeTruthy();
    const second = await call(ctx, "GET", listUrl(s, `?limit=2&cursor=${cursor}`), {
      cookie: s.cookie,
    });
    // Case does not decide the order: "carla" comes between "Bruno" and "Dora".
    expect((second.json() as PackageProgressRow[]).map((r) => r.learner.name)).toEqual([
      "carla Diaz",
      "Dora 50% Off",
    ]);
    expect(second.headers["x-next-cursor"]).toBeUndefined();

    expect((await list(s, "?sort=-name")).map((r) => r.learner.name)).toEqual([
      "Dora 50% Off",
      "carla Diaz",
      "Bruno Alves",
      "Aïsha Khan",
    ]);
    expect((await list(s, "?sort=email")).map((r) => r.learner.email)).toEqual([
      "wil@example.com",
      "xia@example.com",
      "yan@example.com",
      "zed@example.com",
    ]);
    const descending = await call(ctx, "GET", listUrl(s, "?sort=-email&limit=3"), {
      cookie: s.cookie,
    });
    const rest = await list(
      s,
      `?sort=-email&limit=3&cursor=${descending.headers["x-next-cursor"]}`,
    );
    expect(rest.map((r) => r.learner.email)).toEqual(["wil@example.com"]);

    expect((await list(s, "?q=BRUNO")).map((r) => r.learner.name)).toEqual(["Bruno Alves"]);
    expect((await list(s, "?q=xia@")).map((r) => r.learner.name)).toEqual(["Aïsha Khan"]);
    // A wildcard is searched as itself.
    expect((await list(s, "?q=50%25")).map((r) => r.learner.name)).toEqual(["Dora 50% Off"]);
    expect(await list(s, "?q=nobody")).toEqual([]);

    const expired = await call(ctx, "GET", listUrl(s, "?cursor=bm90LWEtY3Vyc29y"), {
      cookie: s.cookie,
    });
    expect(expired.statusCode).toBe(400);
    expect(expectErrorBody(expired).code).toBe("validation.invalid_cursor");
    const badSort = await call(ctx, "GET", listUrl(s, "?sort=score"), { cookie: s.cookie });
    expect(badSort.statusCode).toBe(400);
  });

  it("exports the learners as CSV, searched and sorted as asked", async () => {
    const s = await setUp();
    const ann = await learnerIn(s.course, "Ann Passed");
    await learnerIn(s.course, "=cmd Mallory", "mallory@example.com");
    await attempt(s, ann.id, { success: "passed", scoreScaled: 0.9, reportedSeconds: 120 });

    const response = await call(ctx, "GET", listUrl(s, "?format=csv"), { cookie: s.cookie });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toMatch(
      /^attachment; filename="attempts-Golf-for-beginners-Golf-explained-\d{4}-\d\d-\d\d\.csv"$/,
    );
    const rows = parseCsv(response.body.replace(/^\ufeff/, ""));
    expect(rows[0]).toEqual([
      "Learner",
      "Email",
      "Status",
      "Score (%)",
      "Reported Time (s)",
      "Seat Time (s)",
      "Attempts",
      "Current Attempt",
      "Module Completed",
      "Module Completed At",
      "Last Activity At",
    ]);
    // A name that would run as a formula is written as text.
    expect(rows[1]!.slice(0, 10)).toEqual([
      "'=cmd Mallory",
      "mallory@example.com",
      "Not started",
      "",
      "0",
      "0",
      "0",
      "",
      "No",
      "",
    ]);
    expect(rows[2]!.slice(0, 9)).toEqual([
      "Ann Passed",
      "ann.passed@example.com",
      "Passed",
      "90",
      "120",
      "0",
      "1",
      "1",
      "No",
    ]);
    expect(rows).toHaveLength(3);

    const searched = await call(ctx, "GET", listUrl(s, "?format=csv&q=ann&sort=-name"), {
      cookie: s.cookie,
    });
    expect(parseCsv(searched.body.replace(/^\ufeff/, "")).map((r) => r[0])).toEqual([
      "Learner",
      "Ann Passed",
    ]);
  });

  it("resets an attempt: the learner's next launch opens the next one, and a completed module stays complete", async () => {
    const s = await setUp();
    const learner = await learnerIn(s.course, "Rita Reset");
    const first = await attempt(s, learner.id, {
      completion: "completed",
      success: "passed",
      scoreScaled: 1,
      seatSeconds: 600,
      satisfiedAt: new Date(),
    });
    await completeModule(ctx, learner.enrollmentId, s.scorm.id);

    const response = await call(ctx, "POST", resetUrl(s, learner.id), { cookie: s.cookie });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      learner: { id: learner.id, name: "Rita Reset" },
      status: "Not started",
      scorePercent: null,
      seatSeconds: 0,
      attempts: 1,
      currentAttempt: null,
      // The record of credit is never rewritten: the module stays complete.
      moduleCompleted: true,
    });
    const [ended] = await ctx.database.db
      .select()
      .from(packageAttempts)
      .where(eq(packageAttempts.id, first.id));
    expect(ended!.endedAt).toBeInstanceOf(Date);
    expect(ended!.endedBy).toBe(s.admin.id);
    // What the attempt reported is kept as the record of what was done.
    expect(ended!.success).toBe("passed");

    // The audit trail names who reset which attempt of which module, for whom.
    const audit = await call(ctx, "GET", "/api/audit/events?type=package.attempt_reset", {
      cookie: s.cookie,
    });
    const [event] = (audit.json() as AuditEventsPage).events;
    expect(event).toMatchObject({
      type: "package.attempt_reset",
      actor: { id: s.admin.id },
      learner: { id: learner.id },
      course: { id: s.course.id },
      moduleId: s.scorm.id,
      details: { attemptNumber: 1, moduleId: s.scorm.id, moduleTitle: "Golf explained" },
      summary: "Reset the learner's attempt 1 at “Golf explained”",
    });

    // Nothing is open now: a second reset has nothing to end.
    const again = await call(ctx, "POST", resetUrl(s, learner.id), { cookie: s.cookie });
    expect(again.statusCode).toBe(409);
    expect(expectErrorBody(again).code).toBe("attempts.nothing_to_reset");

    const next = await attempt(s, learner.id, { completion: "incomplete" });
    expect(next.number).toBe(2);
    expect(byName(await list(s))["Rita Reset"]).toMatchObject({
      status: "In progress",
      attempts: 2,
      currentAttempt: 2,
      moduleCompleted: true,
    });
  });

  it("ends an attempt once when two resets cross", async () => {
    const s = await setUp();
    const learner = await learnerIn(s.course, "Two Clicks");
    await attempt(s, learner.id);
    const answers = await Promise.all([
      call(ctx, "POST", resetUrl(s, learner.id), { cookie: s.cookie }),
      call(ctx, "POST", resetUrl(s, learner.id), { cookie: s.cookie }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const rows = await ctx.database.db
      .select()
      .from(packageAttempts)
      .where(and(eq(packageAttempts.userId, learner.id)));
    expect(rows).toHaveLength(1);
    const audit = await call(ctx, "GET", "/api/audit/events?type=package.attempt_reset", {
      cookie: s.cookie,
    });
    expect((audit.json() as AuditEventsPage).events).toHaveLength(1);
  });

  it("refuses a video module, an unknown module, course or learner, and a learner not enrolled", async () => {
    const s = await setUp();
    const learner = await learnerIn(s.course, "Only Learner");
    await attempt(s, learner.id);
    const stranger = await quickLearner(ctx, { name: "Not Enrolled" });

    const video = await call(ctx, "GET", listUrl(s, "", s.video.id), { cookie: s.cookie });
    expect(video.statusCode).toBe(409);
    expect(expectErrorBody(video).code).toBe("attempts.not_a_package");
    const videoCsv = await call(ctx, "GET", listUrl(s, "?format=csv", s.video.id), {
      cookie: s.cookie,
    });
    expect(expectErrorBody(videoCsv).code).toBe("attempts.not_a_package");
    const videoReset = await call(ctx, "POST", resetUrl(s, learner.id, s.video.id), {
      cookie: s.cookie,
    });
    expect(expectErrorBody(videoReset).code).toBe("attempts.not_a_package");

    const unknownModule = await call(ctx, "GET", listUrl(s, "", moduleId(999_999)), {
      cookie: s.cookie,
    });
    expect(unknownModule.statusCode).toBe(404);
    expect(expectErrorBody(unknownModule).code).toBe("courses.module_not_found");
    const unknownCourse = await call(
      ctx,
      "GET",
      `/api/courses/nope/modules/${s.scorm.id}/package/attempts`,
      { cookie: s.cookie },
    );
    expect(unknownCourse.statusCode).toBe(404);
    expect(expectErrorBody(unknownCourse).code).toBe("courses.not_found");
    const unknownCourseReset = await call(
      ctx,
      "POST",
      `/api/courses/nope/modules/${s.scorm.id}/package/attempts/${learner.id}/reset`,
      { cookie: s.cookie },
    );
    expect(expectErrorBody(unknownCourseReset).code).toBe("courses.not_found");

    for (const userId of [stranger.id, "no-such-user"]) {
      const notEnrolled = await call(ctx, "POST", resetUrl(s, userId), { cookie: s.cookie });
      expect(notEnrolled.statusCode).toBe(404);
      expect(expectErrorBody(notEnrolled).code).toBe("enrollments.not_found");
    }
  });

  it("answers administrators only", async () => {
    const s = await setUp();
    const learner = await learnerIn(s.course, "Curious Learner");
    await attempt(s, learner.id);
    const learnerCookie = await signInAs(ctx, learner);
    for (const [method, url] of [
      ["GET", listUrl(s)],
      ["GET", listUrl(s, "?format=csv")],
      ["POST", resetUrl(s, learner.id)],
      ["GET", `/api/admin/package-progress/${learner.id}/${s.course.id}`],
    ] as const) {
      const asLearner = await call(ctx, method, url, { cookie: learnerCookie });
      expect(asLearner.statusCode, url).toBe(403);
      expect(expectErrorBody(asLearner).code).toBe("auth.forbidden");
      const anonymous = await call(ctx, method, url);
      expect(anonymous.statusCode, url).toBe(401);
    }
    // The learner's attempt is still open.
    const [row] = await ctx.database.db
      .select()
      .from(packageAttempts)
      .where(eq(packageAttempts.userId, learner.id));
    expect(row!.endedAt).toBeNull();
  });

  it("shows a learner's package modules of a course, as their record shows videos' watching", async () => {
    const s = await setUp();
    const cmi5Path = await uploadObject(ctx, s.cookie, {
      kind: "package",
      bytes: cmi5Package("single_au_basic_responsive.zip"),
    });
    const cmi5 = await addModule(ctx, s.cookie, s.course.id, {
      ...validModule("", nextModuleNumber()),
      title: "Geology",
      videoUrl: undefined,
      kind: "cmi5",
      packagePath: cmi5Path,
    });
    const learner = await learnerIn(s.course, "Record Holder");
    await attempt(s, learner.id, { success: "passed", scoreScaled: 0.75, reportedSeconds: 90 });
    await call(ctx, "POST", resetUrl(s, learner.id), { cookie: s.cookie });
    await attempt(s, learner.id, { success: "failed", scoreScaled: 0.5, seatSeconds: 40 });

    const response = await call(
      ctx,
      "GET",
      `/api/admin/package-progress/${learner.id}/${s.course.id}`,
      { cookie: s.cookie },
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as LearnerPackageProgress;
    expect(body).toMatchObject({ courseId: s.course.id, userId: learner.id });
    // The video module is not a package: only the SCORM module is listed.
    expect(body.modules).toEqual([
      {
        moduleId: s.scorm.id,
        moduleTitle: "Golf explained",
        kind: "scorm",
        status: "Failed",
        scorePercent: 50,
        reportedSeconds: 0,
        seatSeconds: 40,
        attempts: 2,
        currentAttempt: 2,
        lastActivityAt: expect.stringMatching(/Z$/),
        moduleCompleted: false,
        moduleCompletedAt: null,
      },
      {
        moduleId: cmi5.id,
        moduleTitle: "Geology",
        kind: "cmi5",
        status: "Not started",
        scorePercent: null,
        reportedSeconds: 0,
        seatSeconds: 0,
        attempts: 0,
        currentAttempt: null,
        lastActivityAt: null,
        moduleCompleted: false,
        moduleCompletedAt: null,
      },
    ]);
    // A cmi5 module has its learners' list too.
    const cmi5List = await call(ctx, "GET", listUrl(s, "", cmi5.id), { cookie: s.cookie });
    expect(cmi5List.statusCode).toBe(200);
    expect((cmi5List.json() as PackageProgressRow[]).map((r) => r.status)).toEqual(["Not started"]);

    const stranger = await quickLearner(ctx, { name: "Nobody" });
    const notEnrolled = await call(
      ctx,
      "GET",
      `/api/admin/package-progress/${stranger.id}/${s.course.id}`,
      { cookie: s.cookie },
    );
    expect(notEnrolled.statusCode).toBe(404);
    expect(expectErrorBody(notEnrolled).code).toBe("enrollments.not_found");
    const noCourse = await call(ctx, "GET", `/api/admin/package-progress/${learner.id}/nope`, {
      cookie: s.cookie,
    });
    expect(expectErrorBody(noCourse).code).toBe("courses.not_found");
  });

  it("adds the package modules to the portal's report export, and nothing when no learner launched one", async () => {
    const s = await setUp();
    const learner = await learnerIn(s.course, "Exported Learner");
    const exportReport = async () => {
      const response = await call(ctx, "GET", "/api/admin/reports/export", { cookie: s.cookie });
      expect(response.statusCode).toBe(200);
      return response.body;
    };
    expect(await exportReport()).not.toContain("Package Progress");

    await attempt(s, learner.id, {
      completion: "completed",
      success: "passed",
      scoreScaled: 0.8,
      reportedSeconds: 200,
      seatSeconds: 210,
      satisfiedAt: new Date(),
    });
    await completeModule(ctx, learner.enrollmentId, s.scorm.id);
    const text = await exportReport();
    const rows = parseCsv(text.slice(text.indexOf("Package Progress")));
    expect(rows[0]).toEqual(["Package Progress"]);
    expect(rows[1]).toEqual([
      "Learner",
      "Email",
      "Course",
      "Module",
      "Content",
      "Status",
      "Score (%)",
      "Reported Time (s)",
      "Seat Time (s)",
      "Attempts",
      "Module Completed",
      "Last Activity At",
    ]);
    expect(rows[2]!.slice(0, 11)).toEqual([
      "Exported Learner",
      "exported.learner@example.com",
      "Golf for beginners",
      "Golf explained",
      "SCORM 1.2",
      "Passed",
      "80",
      "200",
      "210",
      "1",
      "Yes",
    ]);
    expect(rows[2]![11]).toMatch(/Z$/);
  });
});
