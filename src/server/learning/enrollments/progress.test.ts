import { describe, expect, it } from "vitest";
import {
  type Course,
  type EnrollmentWithRelations,
  MESSAGES,
  progressFor,
} from "../../../contract";
import { addModule, validModule } from "../../testing/courses";
import { expectFieldRefused } from "../../testing/errors";
import {
  buildPublishedCourse,
  call,
  completeViaApi,
  enrollViaApi,
  nextModuleNumber,
  postProgress,
  progressRows,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";

const LOCKED = "This module is locked. Complete the previous module first.";

describe("POST /api/progress/update", () => {
  const ctx = useTestApp();
  const videoPath = useSharedVideo(ctx);

  /** An administrator, a published course of N modules, and a signed-in enrolled learner. */
  async function setup(modules = 3) {
    const admin = await quickAdmin(ctx);
    const adminCookie = await signInAs(ctx, admin);
    const video = await videoPath(adminCookie);
    const course = await buildPublishedCourse(ctx, adminCookie, { video, modules });
    const learner = await quickLearner(ctx);
    const cookie = await signInAs(ctx, learner);
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    const complete = (moduleIndex: number, extra: { progress?: number } = {}) =>
      postProgress(ctx, cookie, {
        userId: learner.id,
        courseId: course.id,
        moduleId: course.modules[moduleIndex]!.id,
        ...extra,
      });
    return { admin, adminCookie, video, course, learner, cookie, complete };
  }

  /** Another learner enrolled in the same course, signed in. */
  async function anotherLearner(adminCookie: string, course: Course) {
    const learner = await quickLearner(ctx);
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    return { learner, cookie: await signInAs(ctx, learner) };
  }

  async function enrollmentOf(adminCookie: string, userId: string, courseId: string) {
    const response = await call(ctx, "GET", `/api/enrollments/user/${userId}`, {
      cookie: adminCookie,
    });
    return (response.json() as EnrollmentWithRelations[]).find((e) => e.courseId === courseId)!;
  }

  describe("progress", () => {
    it("is round(completed / total * 100): 33, 67, 100 for three modules, then completed", async () => {
      const { course, learner, complete } = await setup(3);
      const ids = course.modules.map((m) => m.id);
      const first = await complete(0);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({
        userId: learner.id,
        courseId: course.id,
        progress: 33,
        completedModules: [ids[0]],
        isCompleted: false,
        completedAt: null,
        course: { id: course.id },
        user: { id: learner.id },
      });
      const second = (await complete(1)).json() as EnrollmentWithRelations;
      expect(second).toMatchObject({
        progress: 67,
        completedModules: ids.slice(0, 2),
        isCompleted: false,
        completedAt: null,
      });
      const before = Date.now();
      const third = (await complete(2)).json() as EnrollmentWithRelations;
      expect(third).toMatchObject({ progress: 100, completedModules: ids, isCompleted: true });
      const completedAt = new Date(third.completedAt!).getTime();
      expect(completedAt).toBeGreaterThanOrEqual(before - 1000);
      expect(completedAt).toBeLessThanOrEqual(Date.now() + 1000);

      // The audit trail: one row per module, with its time.
      const rows = await progressRows(ctx);
      expect(rows.completions.map((c) => c.moduleId).sort()).toEqual([...ids].sort());
      const last = rows.completions.find((c) => c.moduleId === ids[2])!;
      expect(last.completedAt.toISOString()).toBe(third.completedAt);
      expect(rows.enrollments[0]).toMatchObject({ progress: 100, isCompleted: true });
      expect(progressFor(1, 3)).toBe(33);
    });

    it("matches the spec's formula for other course lengths", async () => {
      const { complete } = await setup(7);
      const seen: number[] = [];
      for (let i = 0; i < 7; i++) seen.push((await complete(i)).json().progress);
      expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => Math.round((n / 7) * 100)));
      expect(seen).toEqual([14, 29, 43, 57, 71, 86, 100]);
    });

    it("ignores a forged progress value: the server computes it", async () => {
      const { complete } = await setup(3);
      expect((await complete(0, { progress: 100 })).json().progress).toBe(33);
      expect((await complete(1, { progress: -5 })).json().progress).toBe(67);
      expect((await progressRows(ctx)).enrollments[0]?.progress).toBe(67);
    });

    it("is idempotent: completing a module again changes nothing", async () => {
      const { complete } = await setup(3);
      const first = (await complete(0)).json();
      const before = await progressRows(ctx);
      const again = await complete(0);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first);
      expect(await progressRows(ctx)).toEqual(before);
      expect(before.completions).toHaveLength(1);
    });

    it("changes nothing when a completed course's modules are completed again", async () => {
      const { complete } = await setup(2);
      await complete(0);
      const done = (await complete(1)).json();
      const before = await progressRows(ctx);
      expect((await complete(1)).json()).toEqual(done);
      expect((await complete(0)).json()).toEqual(done);
      expect(await progressRows(ctx)).toEqual(before);
    });
  });

  describe("refusals change nothing", () => {
    it("refuses another learner's userId with 403", async () => {
      const { adminCookie, course, learner, cookie, complete } = await setup(3);
      const other = await anotherLearner(adminCookie, course);
      await complete(0);
      const before = await progressRows(ctx);
      for (const userId of [other.learner.id, "no-such-user"]) {
        const response = await postProgress(ctx, cookie, {
          userId,
          courseId: course.id,
          moduleId: course.modules[0]!.id,
        });
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({
          message: "You can only update your own progress.",
          code: "enrollments.not_your_progress",
        });
      }
      // The other learner cannot complete modules for the first one either.
      const forged = await postProgress(ctx, other.cookie, {
        userId: learner.id,
        courseId: course.id,
        moduleId: course.modules[1]!.id,
        progress: 100,
      });
      expect(forged.statusCode).toBe(403);
      expect(await progressRows(ctx)).toEqual(before);
    });

    it("refuses a learner who is not enrolled with 403", async () => {
      const { adminCookie, video, learner, cookie } = await setup(3);
      const notMine = await buildPublishedCourse(ctx, adminCookie, { video, modules: 2 });
      const before = await progressRows(ctx);
      const response = await postProgress(ctx, cookie, {
        userId: learner.id,
        courseId: notMine.id,
        moduleId: notMine.modules[0]!.id,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        message: "You are not enrolled in this course.",
        code: "enrollments.not_enrolled",
      });
      const unknownCourse = await postProgress(ctx, cookie, {
        userId: learner.id,
        courseId: "no-such-course",
        moduleId: notMine.modules[0]!.id,
      });
      expect(unknownCourse.statusCode).toBe(403);
      expect(await progressRows(ctx)).toEqual(before);
    });

    it("refuses a module that is not in the course with 404", async () => {
      const { adminCookie, video, learner, cookie, course } = await setup(3);
      const other = await buildPublishedCourse(ctx, adminCookie, { video, modules: 1 });
      const before = await progressRows(ctx);
      for (const moduleId of [other.modules[0]!.id, "module_1234567890123"]) {
        const response = await postProgress(ctx, cookie, {
          userId: learner.id,
          courseId: course.id,
          moduleId,
        });
        expect(response.statusCode, moduleId).toBe(404);
        expect(response.json()).toEqual({
          message: "Module not found in this course.",
          code: "courses.module_not_found",
        });
      }
      expect(await progressRows(ctx)).toEqual(before);
    });

    it("refuses a locked module with 409 until the previous one is complete", async () => {
      const { complete } = await setup(3);
      const before = await progressRows(ctx);
      for (const index of [1, 2]) {
        const response = await complete(index);
        expect(response.statusCode).toBe(409);
        expect(response.json()).toEqual({ message: LOCKED, code: "courses.module_locked" });
      }
      expect(await progressRows(ctx)).toEqual(before);
      expect((await complete(0)).statusCode).toBe(200);
      // Module 3 stays locked while module 2 is incomplete.
      expect((await complete(2)).statusCode).toBe(409);
      expect((await complete(1)).statusCode).toBe(200);
      expect((await complete(2)).json()).toMatchObject({ progress: 100, isCompleted: true });
    });

    it("refuses administrators (403), anonymous users (401) and malformed bodies (400)", async () => {
      const { admin, adminCookie, course, learner, cookie } = await setup(3);
      const body = { userId: learner.id, courseId: course.id, moduleId: course.modules[0]!.id };
      const before = await progressRows(ctx);
      const anonymous = await postProgress(ctx, undefined, body);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({
        message: MESSAGES.notSignedIn,
        code: "auth.not_signed_in",
      });
      for (const userId of [learner.id, admin.id]) {
        const asAdmin = await postProgress(ctx, adminCookie, { ...body, userId });
        expect(asAdmin.statusCode).toBe(403);
      }
      const malformed: [Record<string, unknown>, string][] = [
        [{ ...body, moduleId: "intro" }, "moduleId"],
        [{ ...body, moduleId: undefined }, "moduleId"],
        [{ ...body, courseId: undefined }, "courseId"],
        [{ ...body, userId: undefined }, "userId"],
        [{ ...body, progress: "100" }, "progress"],
      ];
      for (const [payload, field] of malformed) {
        const response = await call(ctx, "POST", "/api/progress/update", { cookie, payload });
        expect(response.statusCode, field).toBe(400);
        expectFieldRefused(response, field);
      }
      expect(await progressRows(ctx)).toEqual(before);
    });
  });

  describe("concurrency", () => {
    it("records one completion from 50 concurrent completions of the same module", async () => {
      const { course, complete } = await setup(3);
      const responses = await Promise.all(Array.from({ length: 50 }, () => complete(0)));
      for (const response of responses) {
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({
          progress: 33,
          completedModules: [course.modules[0]!.id],
          isCompleted: false,
        });
      }
      const rows = await progressRows(ctx);
      expect(rows.completions).toHaveLength(1);
      expect(rows.enrollments[0]?.progress).toBe(33);
    });

    it("records one completion and 100 from 50 concurrent completions of the last module", async () => {
      const { complete } = await setup(2);
      await complete(0);
      const responses = await Promise.all(Array.from({ length: 50 }, () => complete(1)));
      const completedAt = new Set(responses.map((r) => r.json().completedAt));
      expect(responses.every((r) => r.statusCode === 200)).toBe(true);
      expect(completedAt.size).toBe(1);
      const rows = await progressRows(ctx);
      expect(rows.completions).toHaveLength(2);
      expect(rows.enrollments[0]).toMatchObject({ progress: 100, isCompleted: true });
      expect(rows.enrollments[0]?.completedAt?.toISOString()).toBe([...completedAt][0]);
    });

    it("never loses a completion when consecutive modules are completed concurrently", async () => {
      const { course, complete } = await setup(3);
      const answers: EnrollmentWithRelations[] = [];
      // A module opens once the one before it is complete: each module's first answer.
      const opened = [0, 1, 2].map(() => {
        let open = () => {};
        const promise = new Promise<void>((resolve) => {
          open = resolve;
        });
        return { promise, open };
      });
      // Ten callers per module, all at once; one refused while its module was still locked
      // asks again as soon as the module before it has been completed.
      const callers = [0, 1, 2].flatMap((index) =>
        Array.from({ length: 10 }, async () => {
          let response = await complete(index);
          if (response.statusCode === 409 && index > 0) {
            await opened[index - 1]!.promise;
            response = await complete(index);
          }
          expect(response.statusCode).toBe(200);
          answers.push(response.json());
          opened[index]!.open();
        }),
      );
      await Promise.all(callers);
      expect(answers).toHaveLength(30);
      // Every answer is self-consistent: its progress follows from its completed modules.
      for (const answer of answers) {
        expect(answer.progress).toBe(progressFor(answer.completedModules.length, 3));
        expect(answer.completedModules).toEqual(
          course.modules.slice(0, answer.completedModules.length).map((m) => m.id),
        );
        expect(answer.isCompleted).toBe(answer.completedModules.length === 3);
      }
      const rows = await progressRows(ctx);
      expect(rows.completions.map((c) => c.moduleId).sort()).toEqual(
        course.modules.map((m) => m.id).sort(),
      );
      const [enrollment] = rows.enrollments;
      expect(enrollment).toMatchObject({ progress: 100, isCompleted: true });
      const last = rows.completions.find((c) => c.moduleId === course.modules[2]!.id)!;
      expect(enrollment?.completedAt?.toISOString()).toBe(last.completedAt.toISOString());
      // Completions happened in order.
      const times = course.modules.map((m) =>
        rows.completions.find((c) => c.moduleId === m.id)!.completedAt.getTime(),
      );
      expect(times).toEqual([...times].sort((a, b) => a - b));
    });

    it("keeps learners apart: concurrent completions by many learners of one course", async () => {
      const { adminCookie, course, learner, cookie } = await setup(2);
      const others = await Promise.all(
        Array.from({ length: 4 }, () => anotherLearner(adminCookie, course)),
      );
      const everyone = [{ learner, cookie }, ...others];
      await Promise.all(
        everyone.map(({ learner: l, cookie: c }) => completeViaApi(ctx, c, l.id, course, 2)),
      );
      const rows = await progressRows(ctx);
      expect(rows.enrollments).toHaveLength(5);
      expect(rows.completions).toHaveLength(10);
      for (const e of rows.enrollments)
        expect(e).toMatchObject({ progress: 100, isCompleted: true });
    });
  });

  describe("when an administrator changes the modules of a course being taken", () => {
    async function removeModule(adminCookie: string, courseId: string, moduleId: string) {
      const response = await call(ctx, "DELETE", `/api/courses/${courseId}/modules/${moduleId}`, {
        cookie: adminCookie,
      });
      expect(response.statusCode).toBe(200);
    }

    it("adding a module: completed stays completed at 100, others are recomputed", async () => {
      const { adminCookie, video, course, learner: done, cookie: doneCookie } = await setup(3);
      const mid = await anotherLearner(adminCookie, course);
      const fresh = await anotherLearner(adminCookie, course);
      const finished = await completeViaApi(ctx, doneCookie, done.id, course, 3);
      expect((await completeViaApi(ctx, mid.cookie, mid.learner.id, course, 2))?.progress).toBe(67);

      const added = await addModule(
        ctx,
        adminCookie,
        course.id,
        validModule(video, nextModuleNumber()),
      );
      const doneNow = await enrollmentOf(adminCookie, done.id, course.id);
      expect(doneNow).toMatchObject({ progress: 100, isCompleted: true });
      expect(doneNow.completedAt).toBe(finished!.completedAt);
      expect(doneNow.completedModules).toHaveLength(3);
      // 2 of 4 modules: 67 becomes 50.
      expect(await enrollmentOf(adminCookie, mid.learner.id, course.id)).toMatchObject({
        progress: 50,
        isCompleted: false,
        completedAt: null,
      });
      expect(await enrollmentOf(adminCookie, fresh.learner.id, course.id)).toMatchObject({
        progress: 0,
        isCompleted: false,
      });

      // The in-progress learner goes on: 3 of 4 is 75, then the course is complete.
      const withAdded = { ...course, modules: [...course.modules, added] };
      const third = await postProgress(ctx, mid.cookie, {
        userId: mid.learner.id,
        courseId: course.id,
        moduleId: course.modules[2]!.id,
      });
      expect(third.json().progress).toBe(75);
      const fourth = await postProgress(ctx, mid.cookie, {
        userId: mid.learner.id,
        courseId: course.id,
        moduleId: added.id,
      });
      expect(fourth.json()).toMatchObject({ progress: 100, isCompleted: true });
      // The learner who had finished may watch the new module; their credit is unchanged.
      const extra = await postProgress(ctx, doneCookie, {
        userId: done.id,
        courseId: course.id,
        moduleId: added.id,
      });
      expect(extra.statusCode).toBe(200);
      expect(extra.json()).toMatchObject({
        progress: 100,
        isCompleted: true,
        completedAt: finished!.completedAt,
        completedModules: withAdded.modules.map((m) => m.id),
      });
    });

    it("removing the only incomplete module completes the course; others are recomputed", async () => {
      const { adminCookie, course, learner: done, cookie: doneCookie } = await setup(3);
      const two = await anotherLearner(adminCookie, course);
      const one = await anotherLearner(adminCookie, course);
      const fresh = await anotherLearner(adminCookie, course);
      const finished = await completeViaApi(ctx, doneCookie, done.id, course, 3);
      await completeViaApi(ctx, two.cookie, two.learner.id, course, 2);
      await completeViaApi(ctx, one.cookie, one.learner.id, course, 1);

      const before = Date.now();
      await removeModule(adminCookie, course.id, course.modules[2]!.id);
      const kept = course.modules.slice(0, 2).map((m) => m.id);

      expect(await enrollmentOf(adminCookie, done.id, course.id)).toMatchObject({
        progress: 100,
        isCompleted: true,
        completedAt: finished!.completedAt,
        completedModules: kept,
      });
      const twoNow = await enrollmentOf(adminCookie, two.learner.id, course.id);
      expect(twoNow).toMatchObject({ progress: 100, isCompleted: true, completedModules: kept });
      expect(new Date(twoNow.completedAt!).getTime()).toBeGreaterThanOrEqual(before - 1000);
      // 1 of 2 modules.
      expect(await enrollmentOf(adminCookie, one.learner.id, course.id)).toMatchObject({
        progress: 50,
        isCompleted: false,
        completedAt: null,
      });
      expect(await enrollmentOf(adminCookie, fresh.learner.id, course.id)).toMatchObject({
        progress: 0,
        isCompleted: false,
      });
      // The completion rows are the audit trail: the removed module's credit stays recorded.
      expect((await progressRows(ctx)).completions).toHaveLength(3 + 2 + 1);
    });

    it("removing a completed module: progress counts only the course's current modules", async () => {
      const { adminCookie, course, learner, cookie } = await setup(3);
      const two = await anotherLearner(adminCookie, course);
      await completeViaApi(ctx, cookie, learner.id, course, 1);
      await completeViaApi(ctx, two.cookie, two.learner.id, course, 2);

      await removeModule(adminCookie, course.id, course.modules[0]!.id);
      expect(await enrollmentOf(adminCookie, learner.id, course.id)).toMatchObject({
        progress: 0,
        completedModules: [],
        isCompleted: false,
      });
      expect(await enrollmentOf(adminCookie, two.learner.id, course.id)).toMatchObject({
        progress: 50,
        completedModules: [course.modules[1]!.id],
      });
      // The old second module is now the first: open, and it counts as 1 of 2.
      const next = await postProgress(ctx, cookie, {
        userId: learner.id,
        courseId: course.id,
        moduleId: course.modules[1]!.id,
      });
      expect(next.json()).toMatchObject({
        progress: 50,
        completedModules: [course.modules[1]!.id],
      });
      const last = await postProgress(ctx, two.cookie, {
        userId: two.learner.id,
        courseId: course.id,
        moduleId: course.modules[2]!.id,
      });
      expect(last.json()).toMatchObject({ progress: 100, isCompleted: true });
    });
  });
});
