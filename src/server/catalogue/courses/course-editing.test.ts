import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Course, EnrollmentWithRelations } from "../../../contract";
import { certificates } from "../../credit/certificates/certificates.table";
import { objects } from "../../platform/objects/objects.table";
import { createCourse, moduleId, postModule, snapshot } from "../../testing/courses";
import { expectFieldRefused } from "../../testing/errors";
import {
  buildPublishedCourse,
  call,
  completeViaApi,
  enrollViaApi,
  postProgress,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";
import { uploadObject } from "../../testing/uploads";

/** An object path that looks right but that this portal never issued. */
const UNKNOWN_OBJECT = "/objects/uploads/AAAAAAAAAAAAAAAAAAAAAAAA";

const EDITED = {
  title: "Advanced SQL",
  description: "Window functions and query plans.",
  category: "Development",
  duration: 5,
};

describe("editing courses: details, module order and publication", () => {
  const ctx = useTestApp();
  const videoPath = useSharedVideo(ctx);

  async function admin() {
    return signInAs(ctx, await quickAdmin(ctx));
  }

  async function learnerIn(adminCookie: string, course: Course) {
    const learner = await quickLearner(ctx);
    const cookie = await signInAs(ctx, learner);
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    return { learner, cookie };
  }

  async function myEnrollment(cookie: string, userId: string, courseId: string) {
    const list = await call(ctx, "GET", `/api/enrollments/user/${userId}`, { cookie });
    expect(list.statusCode, list.body).toBe(200);
    return (list.json() as EnrollmentWithRelations[]).find((e) => e.courseId === courseId)!;
  }

  /** Every row a course change could touch, certificates included. */
  async function everything() {
    return {
      ...(await snapshot(ctx)),
      certificates: await ctx.database.db.select().from(certificates).orderBy(asc(certificates.id)),
    };
  }

  function expectRefused(
    response: { statusCode: number; json(): unknown },
    status: number,
    field: string | undefined,
    label: string,
  ) {
    expect(response.statusCode, label).toBe(status);
    const body = response.json() as { message: unknown };
    expect(typeof body.message, label).toBe("string");
    if (field) expectFieldRefused(response, field);
  }

  const objectRow = async (path: string) =>
    (
      await ctx.database.db
        .select()
        .from(objects)
        .where(eq(objects.id, path.split("/").pop()!))
    )[0];

  describe("PUT /api/courses/:id", () => {
    it("edits the details, replaces the thumbnail and deletes the old one once unused", async () => {
      const cookie = await admin();
      const first = await uploadObject(ctx, cookie, { kind: "thumbnail" });
      const course = await buildPublishedCourse(ctx, cookie, { video: await videoPath(cookie) });
      await call(ctx, "PUT", `/api/courses/${course.id}`, {
        cookie,
        payload: { ...EDITED, thumbnail: first },
      });
      const { cookie: learnerCookie } = await learnerIn(cookie, course);
      // The learner reads the course once, so the next read must not come from a stale cache.
      await call(ctx, "GET", `/api/courses/${course.id}`, { cookie: learnerCookie });

      const second = await uploadObject(ctx, cookie, { kind: "thumbnail" });
      const put = await call(ctx, "PUT", `/api/courses/${course.id}`, {
        cookie,
        payload: {
          title: "  Advanced SQL, revised ",
          description: "Plans.",
          category: "Database",
          duration: 6,
          thumbnail: second,
          // Author, modules and publication are not edited here: ignored or refused.
          isPublished: false,
          createdBy: "someone-else",
        },
      });
      expect(put.statusCode, put.body).toBe(200);
      const edited = put.json() as Course;
      expect(edited).toMatchObject({
        id: course.id,
        title: "Advanced SQL, revised",
        description: "Plans.",
        category: "Database",
        duration: 6,
        thumbnail: second,
        isPublished: true,
        createdBy: course.createdBy,
        modules: course.modules,
      });
      expect(await objectRow(first)).toBeUndefined();
      expect(await objectRow(second)).toBeDefined();
      const seen = await call(ctx, "GET", `/api/courses/${course.id}`, { cookie: learnerCookie });
      expect(seen.json()).toMatchObject({ title: "Advanced SQL, revised", thumbnail: second });

      // No thumbnail key keeps the current one; settings keys change only what they name.
      const kept = await call(ctx, "PUT", `/api/courses/${course.id}`, {
        cookie,
        payload: { ...EDITED, minWatchPercent: 75 },
      });
      expect(kept.json()).toMatchObject({ ...EDITED, thumbnail: second, minWatchPercent: 75 });

      // A thumbnail another course still shows is kept when this course drops it.
      const other = await createCourse(ctx, cookie, { thumbnail: second });
      const cleared = await call(ctx, "PUT", `/api/courses/${course.id}`, {
        cookie,
        payload: { ...EDITED, thumbnail: null },
      });
      expect(cleared.json()).toMatchObject({ thumbnail: null, minWatchPercent: 75 });
      expect(await objectRow(second)).toBeDefined();
      await call(ctx, "PUT", `/api/courses/${other.id}`, {
        cookie,
        payload: { ...EDITED, thumbnail: "" },
      });
      expect(await objectRow(second)).toBeUndefined();
    });

    it("refuses what creation refuses, an unknown course and non-admins, changing nothing", async () => {
      const cookie = await admin();
      const thumbnail = await uploadObject(ctx, cookie, { kind: "thumbnail" });
      const course = await createCourse(ctx, cookie, { thumbnail });
      const video = await uploadObject(ctx, cookie, { kind: "video" });
      const learner = await signInAs(ctx, await quickLearner(ctx));
      const before = await everything();
      const invalid: [string, Record<string, unknown>, string][] = [
        ["title missing", { title: undefined }, "title"],
        ["title blank", { title: "  " }, "title"],
        ["description blank", { description: " " }, "description"],
        ["category unknown", { category: "Cooking" }, "category"],
        ["duration missing", { duration: undefined }, "duration"],
        ["duration zero", { duration: 0 }, "duration"],
        ["duration not whole", { duration: 2.5 }, "duration"],
        ["duration as text", { duration: "3" }, "duration"],
        ["thumbnail not a path", { thumbnail: "https://evil.example/x.png" }, "thumbnail"],
        ["thumbnail never uploaded", { thumbnail: UNKNOWN_OBJECT }, "thumbnail"],
        ["thumbnail is a video", { thumbnail: video }, "thumbnail"],
        ["credit setting invalid", { minWatchPercent: 0 }, "minWatchPercent"],
      ];
      for (const [label, overrides, field] of invalid) {
        const response = await call(ctx, "PUT", `/api/courses/${course.id}`, {
          cookie,
          payload: { ...EDITED, ...overrides },
        });
        expectRefused(response, 400, field, label);
      }
      const url = `/api/courses/${course.id}`;
      expectRefused(
        await call(ctx, "PUT", "/api/courses/no-such-course", { cookie, payload: EDITED }),
        404,
        undefined,
        "unknown course",
      );
      expectRefused(
        await call(ctx, "PUT", url, { cookie: learner, payload: EDITED }),
        403,
        undefined,
        "learner",
      );
      expectRefused(await call(ctx, "PUT", url, { payload: EDITED }), 401, undefined, "anonymous");
      expect(await everything()).toEqual(before);
    });
  });

  describe("PUT /api/courses/:id/modules/order", () => {
    it("refuses a list that is not exactly the course's modules, changing nothing", async () => {
      const cookie = await admin();
      const video = await videoPath(cookie);
      const course = await buildPublishedCourse(ctx, cookie, { video, modules: 3 });
      const other = await buildPublishedCourse(ctx, cookie, { video, modules: 1 });
      const { learner, cookie: learnerCookie } = await learnerIn(cookie, course);
      await completeViaApi(ctx, learnerCookie, learner.id, course, 1);
      const [a, b, c] = course.modules.map((m) => m.id) as [string, string, string];
      const before = await everything();
      const url = `/api/courses/${course.id}/modules/order`;
      const bad: [string, unknown][] = [
        ["missing", { moduleIds: [a, b] }],
        ["duplicate", { moduleIds: [a, b, b] }],
        ["duplicate replacing one", { moduleIds: [a, a, c] }],
        ["extra", { moduleIds: [a, b, c, moduleId(999_999)] }],
        ["another course's", { moduleIds: [a, b, other.modules[0]!.id] }],
        ["empty", { moduleIds: [] }],
        ["not a module id", { moduleIds: [a, b, "../c"] }],
        ["not a list", { moduleIds: a }],
        ["no list", {}],
      ];
      for (const [label, payload] of bad) {
        expectRefused(await call(ctx, "PUT", url, { cookie, payload }), 400, "moduleIds", label);
      }
      const messages = await Promise.all(
        [
          [a, b],
          [a, b, b],
          [a, b, c, moduleId(999_999)],
        ].map(async (moduleIds) => {
          const response = await call(ctx, "PUT", url, { cookie, payload: { moduleIds } });
          return (response.json() as { message: string }).message;
        }),
      );
      expect(messages).toEqual([
        `${c} is missing. List every module of the course exactly once.`,
        `${b} is listed more than once. List every module of the course exactly once.`,
        `${moduleId(999_999)} is not a module of this course. List every module of the course exactly once.`,
      ]);
      const payload = { moduleIds: [c, b, a] };
      expectRefused(
        await call(ctx, "PUT", "/api/courses/no-such-course/modules/order", { cookie, payload }),
        404,
        undefined,
        "unknown course",
      );
      expectRefused(
        await call(ctx, "PUT", url, { cookie: learnerCookie, payload }),
        403,
        undefined,
        "learner",
      );
      expect(await everything()).toEqual(before);
      const read = await call(ctx, "GET", `/api/courses/${course.id}`, { cookie });
      expect((read.json() as Course).modules.map((m) => m.id)).toEqual([a, b, c]);
    });

    it("keeps learners' completions and moves the locks to the new order", async () => {
      const cookie = await admin();
      const course = await buildPublishedCourse(ctx, cookie, {
        video: await videoPath(cookie),
        modules: 4,
      });
      const [a, b, c, d] = course.modules.map((m) => m.id) as [string, string, string, string];
      const { learner, cookie: learnerCookie } = await learnerIn(cookie, course);
      await completeViaApi(ctx, learnerCookie, learner.id, course, 2);
      // The learner's caches hold the old order before the change.
      await call(ctx, "GET", `/api/courses/${course.id}`, { cookie: learnerCookie });
      expect(await myEnrollment(learnerCookie, learner.id, course.id)).toMatchObject({
        progress: 50,
        completedModules: [a, b],
      });

      const reordered = await call(ctx, "PUT", `/api/courses/${course.id}/modules/order`, {
        cookie,
        payload: { moduleIds: [a, b, d, c] },
      });
      expect(reordered.statusCode, reordered.body).toBe(200);
      expect((reordered.json() as Course).modules.map((m) => m.id)).toEqual([a, b, d, c]);
      const seen = await call(ctx, "GET", `/api/courses/${course.id}`, { cookie: learnerCookie });
      expect((seen.json() as Course).modules.map((m) => m.id)).toEqual([a, b, d, c]);
      expect(await myEnrollment(learnerCookie, learner.id, course.id)).toMatchObject({
        progress: 50,
        completedModules: [a, b],
        isCompleted: false,
      });

      const complete = (moduleId: string) =>
        postProgress(ctx, learnerCookie, { userId: learner.id, courseId: course.id, moduleId });
      // C was next before; now D comes first and C waits for it.
      const locked = await complete(c);
      expectRefused(locked, 409, undefined, "module now locked");
      expect(locked.json()).toEqual({
        message: "This module is locked. Complete the previous module first.",
        code: "courses.module_locked",
      });
      const opened = await complete(d);
      expect(opened.statusCode, opened.body).toBe(200);
      expect(opened.json()).toMatchObject({ progress: 75, completedModules: [a, b, d] });
      const last = await complete(c);
      expect(last.json()).toMatchObject({ progress: 100, isCompleted: true });

      // A completed module moved behind an unfinished one stays completed.
      const second = await learnerIn(cookie, course);
      await completeViaApi(ctx, second.cookie, second.learner.id, course, 1);
      await call(ctx, "PUT", `/api/courses/${course.id}/modules/order`, {
        cookie,
        payload: { moduleIds: [b, a, c, d] },
      });
      expect(await myEnrollment(second.cookie, second.learner.id, course.id)).toMatchObject({
        progress: 25,
        completedModules: [a],
      });
      // B now opens the course; C follows the completed A; D waits for C.
      const first = await postProgress(ctx, second.cookie, {
        userId: second.learner.id,
        courseId: course.id,
        moduleId: d,
      });
      expect(first.statusCode).toBe(409);
      const now = await postProgress(ctx, second.cookie, {
        userId: second.learner.id,
        courseId: course.id,
        moduleId: b,
      });
      expect(now.json()).toMatchObject({ progress: 50, completedModules: [a, b] });
    });

    it("never gives a removed module's id to a new module, whose content nobody has done", async () => {
      const cookie = await admin();
      const video = await videoPath(cookie);
      const course = await buildPublishedCourse(ctx, cookie, { video, modules: 3 });
      const [a, b] = course.modules.map((m) => m.id) as [string, string];
      const { learner, cookie: learnerCookie } = await learnerIn(cookie, course);
      await completeViaApi(ctx, learnerCookie, learner.id, course, 2);
      const removed = await call(ctx, "DELETE", `/api/courses/${course.id}/modules/${b}`, {
        cookie,
      });
      expect(removed.statusCode, removed.body).toBe(200);

      const before = await everything();
      const again = await postModule(ctx, cookie, course.id, {
        id: b,
        title: "A new module",
        description: "",
        duration: 5,
        videoUrl: video,
      });
      expect(again.json()).toEqual({
        message: "A module with this id was in the course before: a new module needs a new id.",
        code: "courses.module_id_taken",
      });
      expect(again.statusCode).toBe(409);
      expect(await everything()).toEqual(before);
      // The learner kept the removed module's completion; the course has one module left.
      expect(await myEnrollment(learnerCookie, learner.id, course.id)).toMatchObject({
        completedModules: [a],
        isCompleted: false,
      });
    });
  });

  describe("PATCH /api/courses/:id/unpublish", () => {
    it("takes the course offline for learners, keeping every record, until it is republished", async () => {
      const cookie = await admin();
      const course = await buildPublishedCourse(ctx, cookie, {
        video: await videoPath(cookie),
        modules: 2,
      });
      const draft = await createCourse(ctx, cookie);
      const finisher = await learnerIn(cookie, course);
      await completeViaApi(ctx, finisher.cookie, finisher.learner.id, course, 2);
      const { learner, cookie: learnerCookie } = await learnerIn(cookie, course);
      await completeViaApi(ctx, learnerCookie, learner.id, course, 1);
      await call(ctx, "GET", `/api/courses/${course.id}`, { cookie: learnerCookie });
      const before = await everything();
      expect(before.certificates).toHaveLength(1);

      const url = `/api/courses/${course.id}/unpublish`;
      expectRefused(
        await call(ctx, "PATCH", url, { cookie: learnerCookie }),
        403,
        undefined,
        "learner",
      );
      const done = await call(ctx, "PATCH", url, { cookie });
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toMatchObject({
        id: course.id,
        isPublished: false,
        modules: course.modules,
      });
      const after = await everything();
      expect(after.enrollments).toEqual(before.enrollments);
      expect(after.completions).toEqual(before.completions);
      expect(after.certificates).toEqual(before.certificates);

      // The learner cannot open it, but still sees the enrollment, flagged by the course.
      const opened = await call(ctx, "GET", `/api/courses/${course.id}`, { cookie: learnerCookie });
      expect(opened.statusCode).toBe(404);
      expect(opened.json()).toEqual({ message: "Course not found", code: "courses.not_found" });
      const listed = await call(ctx, "GET", "/api/courses", { cookie: learnerCookie });
      expect(listed.json()).toEqual([]);
      expect(await myEnrollment(learnerCookie, learner.id, course.id)).toMatchObject({
        progress: 50,
        completedModules: [course.modules[0]!.id],
        course: { id: course.id, isPublished: false },
      });
      expect(await myEnrollment(finisher.cookie, finisher.learner.id, course.id)).toMatchObject({
        isCompleted: true,
        progress: 100,
      });
      const progress = await postProgress(ctx, learnerCookie, {
        userId: learner.id,
        courseId: course.id,
        moduleId: course.modules[1]!.id,
      });
      expectRefused(progress, 409, undefined, "progress while offline");
      expect(progress.json()).toEqual({
        message: "This course is unavailable: the provider has taken it offline for now.",
        code: "courses.unpublished",
      });
      expect((await everything()).completions).toEqual(before.completions);

      // Only a published course can be unpublished.
      const snapshotOffline = await everything();
      for (const [label, target, status] of [
        ["again", course.id, 400],
        ["draft", draft.id, 400],
        ["unknown", "no-such-course", 404],
      ] as const) {
        const response = await call(ctx, "PATCH", `/api/courses/${target}/unpublish`, { cookie });
        expectRefused(response, status, undefined, label);
      }
      const again = await call(ctx, "PATCH", url, { cookie });
      expect(again.json()).toEqual({
        message: "This course is not published, so it cannot be unpublished.",
        code: "courses.not_published",
      });
      expect(await everything()).toEqual(snapshotOffline);

      // Published again, the learner picks up where they left off.
      const republished = await call(ctx, "PATCH", `/api/courses/${course.id}/publish`, { cookie });
      expect(republished.json()).toMatchObject({ isPublished: true });
      const back = await call(ctx, "GET", `/api/courses/${course.id}`, { cookie: learnerCookie });
      expect(back.statusCode).toBe(200);
      const resumed = await postProgress(ctx, learnerCookie, {
        userId: learner.id,
        courseId: course.id,
        moduleId: course.modules[1]!.id,
      });
      expect(resumed.json()).toMatchObject({ progress: 100, isCompleted: true });
    });
  });
});
