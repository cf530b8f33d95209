import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { PackageAttemptStatus, PackageLaunch, PackagePreview } from "../../../contract";
import { addModule, createCourse, moduleId, postModule, publish } from "../../testing/courses";
import { expectErrorBody } from "../../testing/errors";
import {
  call,
  enrollViaApi,
  postProgress,
  quickAdmin,
  quickLearner,
  signInAs,
} from "../../testing/learning";
import { uploadObject } from "../../testing/uploads";
import { useWatchingTestApp } from "../../testing/watching";
import { golfPackage, makeZip } from "../../testing/zips";
import { enrollments } from "../enrollments/enrollments.table";
import { packageAttempts, packageItemStates } from "./package-runs.table";

/** A SCORM 1.2 package of two SCOs, the second with a mastery score of 80. */
const twoScos = () =>
  makeZip([
    {
      name: "imsmanifest.xml",
      data: `<?xml version="1.0"?>
<manifest identifier="two.scos" version="1"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org">
    <organization identifier="org">
      <title>Two lessons</title>
      <item identifier="lesson" identifierref="res_1"><title>Lesson</title></item>
      <item identifier="quiz" identifierref="res_2">
        <title>Quiz</title>
        <adlcp:masteryscore>80</adlcp:masteryscore>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="res_1" type="webcontent" adlcp:scormtype="sco" href="lesson.html"/>
    <resource identifier="res_2" type="webcontent" adlcp:scormtype="sco" href="quiz.html"/>
  </resources>
</manifest>`,
    },
    { name: "lesson.html", data: "<p>Lesson</p>" },
    { name: "quiz.html", data: "<p>Quiz</p>" },
  ]);

/** A SCORM 1.2 package of two assets (pages that never talk to the run time). */
const twoAssets = () =>
  makeZip([
    {
      name: "imsmanifest.xml",
      data: `<?xml version="1.0"?>
<manifest identifier="two.assets" version="1"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org">
    <organization identifier="org">
      <title>Two pages</title>
      <item identifier="one" identifierref="res_1"><title>One</title></item>
      <item identifier="two" identifierref="res_2"><title>Two</title></item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="res_1" type="webcontent" adlcp:scormtype="asset" href="one.html"/>
    <resource identifier="res_2" type="webcontent" adlcp:scormtype="asset" href="two.html"/>
  </resources>
</manifest>`,
    },
    { name: "one.html", data: "<p>One</p>" },
    { name: "two.html", data: "<p>Two</p>" },
  ]);

describe("a learner's run of a SCORM package", () => {
  const { ctx, clock } = useWatchingTestApp();

  /**
   * A published course whose modules are the given packages (or a video for "video"),
   * with a learner enrolled; `settings` are the course's completion settings.
   */
  async function setup(
    contents: (Buffer | "video")[],
    options: { settings?: Record<string, unknown> } = {},
  ) {
    const admin = await signInAs(ctx, await quickAdmin(ctx));
    const course = await createCourse(ctx, admin);
    for (const [i, content] of contents.entries()) {
      const n = i + 1;
      const base = { id: moduleId(n), title: `Module ${n}`, description: "", duration: 10 };
      if (content === "video") {
        const video = await uploadObject(ctx, admin, { kind: "video" });
        await addModule(ctx, admin, course.id, { ...base, videoUrl: video });
      } else {
        const path = await uploadObject(ctx, admin, { kind: "package", bytes: content });
        const added = await postModule(ctx, admin, course.id, {
          ...base,
          kind: "scorm",
          packagePath: path,
        });
        expect(added.statusCode, added.body).toBe(201);
      }
    }
    if (options.settings) {
      const response = await call(ctx, "PATCH", `/api/courses/${course.id}/settings`, {
        cookie: admin,
        payload: options.settings,
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    await publish(ctx, admin, course.id);
    const learner = await quickLearner(ctx, { name: "Ada Lovelace" });
    await enrollViaApi(ctx, admin, learner.id, course.id);
    const cookie = await signInAs(ctx, learner);
    const at = (n: number, rest = "") =>
      `/api/courses/${course.id}/modules/${moduleId(n)}/package${rest}`;
    const launch = (n = 1, as = cookie) => call(ctx, "POST", at(n, "/launch"), { cookie: as });
    const commit = (item: string, payload: unknown, n = 1, as = cookie) =>
      call(ctx, "PUT", at(n, `/items/${encodeURIComponent(item)}`), { cookie: as, payload });
    const item = (id: string, n = 1, as = cookie) =>
      call(ctx, "GET", at(n, `/items/${encodeURIComponent(id)}`), { cookie: as });
    const seat = (visible: boolean, n = 1, as = cookie) =>
      call(ctx, "POST", at(n, "/seat"), { cookie: as, payload: { visible } });
    const status = async (response: Awaited<ReturnType<typeof commit>>) => {
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as PackageAttemptStatus;
    };
    const progress = async () => {
      const [row] = await ctx.database.db
        .select()
        .from(enrollments)
        .where(eq(enrollments.userId, learner.id));
      return row!;
    };
    return { admin, course, learner, cookie, launch, commit, item, seat, status, progress };
  }

  it("launches the open attempt with its items, the content's address and the learner's data model", async () => {
    const { launch, learner } = await setup([golfPackage("RuntimeMinimumCalls_SCORM12-mini.zip")]);
    const first = await launch();
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json() as PackageLaunch;
    expect(body.standard).toBe("scorm12");
    expect(body.items).toHaveLength(9);
    expect(body.items[0]).toEqual({
      id: "playing_playing_item",
      title: "How to Play",
      launchable: true,
    });
    expect(body.resume).toEqual({ itemId: "playing_playing_item" });
    expect(body.contentBase).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/p\/[^/]+\/$/);
    expect(body.runtimeUrl).toBe(`${new URL(body.contentBase).origin}/runtime/scorm.html`);
    expect(body.item).toMatchObject({
      itemId: "playing_playing_item",
      launchPath: "Playing/Playing.html",
      scormType: "sco",
      cmi: {
        core: {
          student_id: learner.id,
          student_name: "Ada Lovelace",
          entry: "ab-initio",
          credit: "credit",
          lesson_mode: "normal",
          total_time: "00:00:00",
        },
      },
    });
    expect(body.status).toMatchObject({
      completion: "unknown",
      satisfied: false,
      moduleCompleted: false,
    });
    // The launch page and the package's files are served by the content origin.
    const page = await ctx.app.content.inject({
      method: "GET",
      url: "/runtime/scorm.html",
      headers: { host: new URL(body.runtimeUrl!).host },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-security-policy"]).toContain(
      "frame-ancestors http://localhost:5000",
    );
    expect(page.body).toContain('content="http://localhost:5000"');
    const launched = await ctx.app.content.inject({
      method: "GET",
      url: new URL(body.item!.launchPath, body.contentBase).pathname,
      headers: { host: new URL(body.runtimeUrl!).host },
    });
    expect(launched.statusCode).toBe(200);
    // Launching again opens no second attempt.
    expect((await launch()).json().attemptId).toBe(body.attemptId);
    expect(await ctx.database.db.select().from(packageAttempts)).toHaveLength(1);
  });

  it("keeps a SCO's data model, resumes from it, and completes the module once it finishes", async () => {
    const { launch, commit, item, status, progress } = await setup([
      golfPackage("singlescobasic.zip"),
    ]);
    const { resume } = (await launch()).json() as PackageLaunch;
    const itemId = resume.itemId;
    const saved = await status(
      await commit(itemId, {
        cmi: {
          core: {
            lesson_location: "page-3",
            lesson_status: "incomplete",
            session_time: "00:02:05",
            total_time: "00:02:05",
            exit: "suspend",
          },
          suspend_data: "visited=1,2,3",
        },
      }),
    );
    expect(saved).toMatchObject({
      completion: "incomplete",
      satisfied: false,
      reportedSeconds: 125,
      moduleCompleted: false,
    });
    // A return resumes where the content said.
    const again = await item(itemId);
    expect(again.statusCode).toBe(200);
    expect(again.json().cmi).toMatchObject({
      core: {
        lesson_location: "page-3",
        lesson_status: "incomplete",
        entry: "resume",
        total_time: "00:02:05",
      },
      suspend_data: "visited=1,2,3",
    });
    expect(((await launch()).json() as PackageLaunch).item?.cmi).toMatchObject({
      core: { lesson_location: "page-3", entry: "resume" },
    });
    // LMSFinish without a status: SCORM 1.2 counts the SCO completed.
    const finished = await status(
      await commit(itemId, {
        cmi: { core: { lesson_location: "page-9", lesson_status: "not attempted" } },
        finish: true,
      }),
    );
    expect(finished).toMatchObject({
      completion: "completed",
      satisfied: true,
      moduleCompleted: true,
    });
    expect(await progress()).toMatchObject({ progress: 100, isCompleted: true });
    const [attempt] = await ctx.database.db.select().from(packageAttempts);
    expect(attempt?.satisfiedAt).not.toBeNull();
  });

  it("asks every SCO of a multi-SCO package to be completed or passed, never failed", async () => {
    const { commit, status, progress } = await setup([twoScos()]);
    const lesson = await status(
      await commit("lesson", { cmi: { core: { lesson_status: "completed" } } }),
    );
    expect(lesson).toMatchObject({ completion: "incomplete", satisfied: false });
    expect(lesson.items.map((i) => [i.id, i.completion])).toEqual([
      ["lesson", "completed"],
      ["quiz", "unknown"],
    ]);
    // The quiz's mastery score decides: 70 of 100 fails it, completed as it says it is.
    const failed = await status(
      await commit("quiz", {
        cmi: { core: { lesson_status: "completed", score: { raw: "70", min: "0", max: "100" } } },
      }),
    );
    expect(failed).toMatchObject({
      completion: "completed",
      success: "failed",
      satisfied: false,
      moduleCompleted: false,
    });
    expect(failed.scoreScaled).toBeCloseTo(0.7);
    const passed = await status(
      await commit("quiz", {
        cmi: { core: { lesson_status: "completed", score: { raw: "90", min: "0", max: "100" } } },
      }),
    );
    expect(passed).toMatchObject({
      completion: "completed",
      success: "passed",
      satisfied: true,
      moduleCompleted: true,
    });
    expect(passed.scoreScaled).toBeCloseTo(0.9);
    expect((await progress()).isCompleted).toBe(true);
  });

  it("resumes at the item last committed to, and counts a package of assets once each is opened", async () => {
    const { launch, commit, item, status, progress } = await setup([twoScos(), twoAssets()]);
    expect(((await launch()).json() as PackageLaunch).resume.itemId).toBe("lesson");
    await status(await commit("quiz", { cmi: { core: { lesson_location: "q2" } } }));
    const back = (await launch()).json() as PackageLaunch;
    expect(back.resume.itemId).toBe("quiz");
    expect(back.item?.cmi).toMatchObject({ core: { lesson_location: "q2", entry: "resume" } });
    // Completing the first module opens the second, of assets only.
    await status(await commit("lesson", { cmi: { core: { lesson_status: "passed" } } }));
    await status(await commit("quiz", { cmi: { core: { lesson_status: "passed" } } }));
    const assets = (await launch(2)).json() as PackageLaunch;
    expect(assets.item).toMatchObject({
      itemId: "one",
      scormType: "asset",
      launchPath: "one.html",
    });
    expect((await item("one", 2)).statusCode).toBe(200);
    expect((await progress()).progress).toBe(50);
    const two = await item("two", 2);
    expect(two.json().status).toMatchObject({ satisfied: true, moduleCompleted: true });
    expect(await progress()).toMatchObject({ progress: 100, isCompleted: true });
  });

  it("reads SCORM 2004's completion, success, scaled score and progress measure", async () => {
    const { launch, commit, status } = await setup([
      golfPackage("RuntimeBasicCalls_SCORM20043rdEdition.zip"),
    ]);
    const launched = (await launch()).json() as PackageLaunch;
    expect(launched.standard).toBe("scorm2004");
    expect(launched.item?.cmi).toMatchObject({ entry: "ab-initio", total_time: "PT0H0M0S" });
    const itemId = launched.resume.itemId;
    // The measure decides against the threshold, whatever the status says.
    const measured = await status(
      await commit(itemId, {
        cmi: {
          completion_status: "completed",
          completion_threshold: "0.8",
          progress_measure: "0.5",
          location: "4",
          session_time: "PT1M30S",
        },
      }),
    );
    expect(measured).toMatchObject({ completion: "incomplete", reportedSeconds: 90 });
    // Completed, but failed: not the module's rule.
    const failed = await status(
      await commit(itemId, {
        cmi: { completion_status: "completed", success_status: "failed", score: { scaled: "0.4" } },
      }),
    );
    expect(failed).toMatchObject({ completion: "completed", success: "failed", satisfied: false });
    // Passed counts even before the content says it completed.
    const passed = await status(
      await commit(itemId, {
        cmi: {
          completion_status: "incomplete",
          success_status: "passed",
          score: { scaled: "0.85" },
          location: "14",
        },
      }),
    );
    expect(passed).toMatchObject({ success: "passed", satisfied: true, moduleCompleted: true });
    expect(passed.scoreScaled).toBeCloseTo(0.85);
    expect(((await launch()).json() as PackageLaunch).item?.cmi).toMatchObject({
      location: "14",
      entry: "resume",
      success_status: "passed",
    });
  });

  it("counts seat time only while the content is open and visible, and then completes the module", async () => {
    const { launch, commit, seat, status, learner, cookie, course } = await setup(
      [golfPackage("singlescobasic.zip")],
      { settings: { completionPolicy: "verified", minWatchPercent: 90, minSeatSeconds: 60 } },
    );
    const { resume } = (await launch()).json() as PackageLaunch;
    expect((await status(await seat(true))).seatSeconds).toBe(0);
    clock.advance(20);
    expect((await status(await seat(true))).seatSeconds).toBe(20);
    // Time in a hidden page never counts.
    clock.advance(20);
    expect((await status(await seat(false))).seatSeconds).toBe(20);
    // A page that stopped beating (asleep) earns one beat's worth at most.
    clock.advance(600);
    expect((await status(await seat(true))).seatSeconds).toBe(50);
    // The package meets its rule: the module waits for the seat time.
    const done = await status(
      await commit(resume.itemId, { cmi: { core: { lesson_status: "passed" } }, finish: true }),
    );
    expect(done).toMatchObject({ satisfied: true, moduleCompleted: false, minSeatSeconds: 60 });
    const marked = await postProgress(ctx, cookie, {
      userId: learner.id,
      courseId: course.id,
      moduleId: moduleId(1),
    });
    expect([marked.statusCode, expectErrorBody(marked).code]).toEqual([
      409,
      "modules.package_seat_time",
    ]);
    clock.advance(15);
    expect(await status(await seat(true))).toMatchObject({
      seatSeconds: 65,
      moduleCompleted: true,
    });
  });

  it("refuses learners it does not belong to, locked modules, video modules and faulty data", async () => {
    const { admin, course, commit, launch, item, seat, cookie } = await setup([
      twoScos(),
      golfPackage("singlescobasic.zip"),
      "video",
    ]);
    const code = (response: Awaited<ReturnType<typeof launch>>) => [
      response.statusCode,
      expectErrorBody(response).code,
    ];
    // Another learner, not enrolled.
    const stranger = await signInAs(ctx, await quickLearner(ctx));
    expect(code(await launch(1, stranger))).toEqual([403, "enrollments.not_enrolled"]);
    expect(code(await commit("lesson", { cmi: {} }, 1, stranger))).toEqual([
      403,
      "enrollments.not_enrolled",
    ]);
    // Another enrolled learner has an attempt of their own: nothing of the first one's.
    const other = await quickLearner(ctx);
    await enrollViaApi(ctx, admin, other.id, course.id);
    const otherCookie = await signInAs(ctx, other);
    await commit("lesson", { cmi: { core: { lesson_location: "mine" } } });
    const theirs = await item("lesson", 1, otherCookie);
    expect(theirs.json().cmi.core.lesson_location).toBeUndefined();
    expect(((await launch(1, otherCookie)).json() as PackageLaunch).attemptId).not.toBe(
      ((await launch()).json() as PackageLaunch).attemptId,
    );
    // The second module is locked until the first is complete; the third is a video.
    expect(code(await launch(2))).toEqual([409, "courses.module_locked"]);
    expect(code(await seat(true, 2))).toEqual([409, "courses.module_locked"]);
    expect(code(await item("item_1", 2))).toEqual([409, "courses.module_locked"]);
    expect(code(await commit("item_1", { cmi: {} }, 2))).toEqual([409, "courses.module_locked"]);
    expect(code(await launch(3))).toEqual([409, "modules.not_a_package"]);
    expect(code(await seat(true, 9))).toEqual([404, "courses.module_not_found"]);
    expect(code(await item("nothing-here"))).toEqual([404, "modules.package_item_not_found"]);
    expect(code(await commit("nothing-here", { cmi: {} }))).toEqual([
      404,
      "modules.package_item_not_found",
    ]);
    // A data model beyond SCORM 1.2's limits, or not one at all.
    const tooLong = await commit("lesson", { cmi: { suspend_data: "x".repeat(4097) } });
    expect(code(tooLong)).toEqual([400, "modules.package_data_invalid"]);
    expect(expectErrorBody(tooLong).message).toMatch(/cmi\.suspend_data/);
    const unknownStatus = await commit("lesson", { cmi: { core: { lesson_status: "done" } } });
    expect(code(unknownStatus)).toEqual([400, "modules.package_data_invalid"]);
    const huge = await commit("lesson", {
      cmi: { interactions: { "0": { id: "q", student_response: "y".repeat(130_000) } } },
    });
    expect(code(huge)).toEqual([400, "modules.package_data_invalid"]);
    // JSON nested past any data model's need is refused before it is read, never a crash.
    const deep = await ctx.app.inject({
      method: "PUT",
      url: `/api/courses/${course.id}/modules/${moduleId(1)}/package/items/lesson`,
      headers: { cookie, "content-type": "application/json" },
      payload: `{"cmi":{"interactions":${"[".repeat(5_000)}${"]".repeat(5_000)}}}`,
    });
    expect(code(deep)).toEqual([400, "request.invalid_json"]);
    expect(code(await commit("lesson", { data: {} }))).toEqual([400, "validation.invalid_body"]);
    const [state] = await ctx.database.db
      .select()
      .from(packageItemStates)
      .where(eq(packageItemStates.itemId, "lesson"));
    expect(state?.data).toEqual({ core: { lesson_location: "mine" } });
    // Administrators do not run packages as learners; nobody signed out does.
    expect((await launch(1, admin)).statusCode).toBe(403);
    expect((await launch(1, "")).statusCode).toBe(401);
    // A course taken offline is not found.
    await call(ctx, "PATCH", `/api/courses/${course.id}/unpublish`, { cookie: admin });
    expect(code(await launch(1, cookie))).toEqual([404, "courses.not_found"]);
  });

  it("lets an administrator preview a package, published or not, recording nothing", async () => {
    const { admin, course, cookie } = await setup([twoScos(), "video"]);
    const preview = (n: number, as = admin, courseId = course.id) =>
      call(ctx, "GET", `/api/courses/${courseId}/modules/${moduleId(n)}/package/preview`, {
        cookie: as,
      });
    const answer = await preview(1);
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json() as PackagePreview;
    expect(body).toMatchObject({
      standard: "scorm12",
      runtimeUrl: "http://127.0.0.1:5001/runtime/scorm.html",
      items: [
        { id: "lesson", title: "Lesson", launchable: true, launchPath: "lesson.html" },
        { id: "quiz", title: "Quiz", launchable: true, launchPath: "quiz.html" },
      ],
    });
    expect(body.contentBase).toMatch(/^http:\/\/127\.0\.0\.1:5001\/p\/[^/]+\/$/);
    // A first launch's data model, for the administrator who looks.
    expect(body.items[1]!.cmi).toMatchObject({ core: { student_name: expect.any(String) } });
    expect(await ctx.database.db.select().from(packageAttempts)).toEqual([]);
    // Taken offline, it still previews; a video, a learner or an unknown module does not.
    await call(ctx, "PATCH", `/api/courses/${course.id}/unpublish`, { cookie: admin });
    expect((await preview(1)).statusCode).toBe(200);
    const code = (r: Awaited<ReturnType<typeof preview>>) => [
      r.statusCode,
      expectErrorBody(r).code,
    ];
    expect(code(await preview(2))).toEqual([409, "modules.not_a_package"]);
    expect(code(await preview(3))).toEqual([404, "courses.module_not_found"]);
    expect(code(await preview(1, admin, "no-such-course"))).toEqual([404, "courses.not_found"]);
    expect((await preview(1, cookie)).statusCode).toBe(403);
  });
});
