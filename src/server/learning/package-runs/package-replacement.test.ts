import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEFAULT_ACTIVITY, type PackageAttemptStatus, type PackageLaunch } from "../../../contract";
import { createCourse, moduleId, postModule, publish } from "../../testing/courses";
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
import { golfPackage } from "../../testing/zips";
import { enrollments } from "../enrollments/enrollments.table";

/**
 * A module given another package starts a new attempt: what the learner did in the package it
 * played before completes nothing, as a replaced video's watching does not.
 */
describe("a package module whose package is replaced", () => {
  const { ctx } = useWatchingTestApp();

  it("completes only on the package it plays now", async () => {
    const admin = await signInAs(ctx, await quickAdmin(ctx));
    const course = await createCourse(ctx, admin);
    const base = { id: moduleId(1), title: "Module 1", description: "", duration: 10 };
    const oldPath = await uploadObject(ctx, admin, {
      kind: "package",
      bytes: golfPackage("singlescobasic.zip"),
    });
    const added = await postModule(ctx, admin, course.id, {
      ...base,
      kind: "scorm",
      packagePath: oldPath,
    });
    expect(added.statusCode, added.body).toBe(201);
    // The activity page's acknowledgement holds the module after its content is done.
    const activity = await call(ctx, "PUT", `/api/courses/${course.id}/activity`, {
      cookie: admin,
      payload: { ...DEFAULT_ACTIVITY, acknowledgementRequired: true },
    });
    expect(activity.statusCode, activity.body).toBe(200);
    await publish(ctx, admin, course.id);
    const learner = await quickLearner(ctx);
    await enrollViaApi(ctx, admin, learner.id, course.id);
    const cookie = await signInAs(ctx, learner);
    const at = (rest: string) => `/api/courses/${course.id}/modules/${moduleId(1)}/package${rest}`;
    const finish = async () => {
      const launched = await call(ctx, "POST", at("/launch"), { cookie });
      expect(launched.statusCode, launched.body).toBe(200);
      const { resume } = launched.json() as PackageLaunch;
      const finished = await call(ctx, "PUT", at(`/items/${encodeURIComponent(resume.itemId)}`), {
        cookie,
        payload: { cmi: { core: { lesson_status: "completed" } }, finish: true },
      });
      expect(finished.statusCode, finished.body).toBe(200);
      return finished.json() as PackageAttemptStatus;
    };
    const enrollment = async () =>
      (
        await ctx.database.db.select().from(enrollments).where(eq(enrollments.userId, learner.id))
      )[0];

    // The old package done before the acknowledgement: satisfied, the module still waiting.
    expect(await finish()).toMatchObject({ satisfied: true, moduleCompleted: false });

    const newPath = await uploadObject(ctx, admin, {
      kind: "package",
      bytes: golfPackage("singlesco_scorm12.zip"),
    });
    const replaced = await call(ctx, "PUT", `/api/courses/${course.id}/modules/${moduleId(1)}`, {
      cookie: admin,
      payload: { ...base, kind: "scorm", packagePath: newPath },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);

    // Acknowledged, the module is still not complete on the old package's attempt.
    const ack = await call(ctx, "POST", `/api/courses/${course.id}/acknowledge`, { cookie });
    expect(ack.statusCode, ack.body).toBe(200);
    const marked = await postProgress(ctx, cookie, {
      userId: learner.id,
      courseId: course.id,
      moduleId: moduleId(1),
    });
    expect([marked.statusCode, expectErrorBody(marked).code]).toEqual([
      409,
      "modules.package_reports_completion",
    ]);
    expect(await enrollment()).toMatchObject({ isCompleted: false, progress: 0 });

    // The new package run to its end completes the module, and with it the course.
    expect(await finish()).toMatchObject({ satisfied: true, moduleCompleted: true });
    expect(await enrollment()).toMatchObject({ isCompleted: true, progress: 100 });
  });
});
