import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type EnrollmentWithRelations, MESSAGES } from "../../../contract";
import { snapshot } from "../../testing/courses";
import { expectFieldRefused } from "../../testing/errors";
import { allKeys } from "../../testing/inspect";
import {
  buildPublishedCourse,
  call,
  completeViaApi,
  enrollViaApi,
  postEnrollment,
  progressRows,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";

describe("enrollments", () => {
  const ctx = useTestApp();
  const videoPath = useSharedVideo(ctx);

  async function setup(options: { modules?: number } = {}) {
    const admin = await quickAdmin(ctx);
    const adminCookie = await signInAs(ctx, admin);
    const video = await videoPath(adminCookie);
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video,
      modules: options.modules ?? 2,
      title: "Published",
    });
    return { admin, adminCookie, video, course };
  }

  describe("POST /api/enrollments", () => {
    it("enrolls a learner in a published course and answers it with course and user", async () => {
      const { adminCookie, course } = await setup();
      const learner = await quickLearner(ctx, { name: "Lena", password: null });
      const response = await postEnrollment(ctx, adminCookie, {
        userId: learner.id,
        courseId: course.id,
      });
      expect(response.statusCode).toBe(201);
      const body = response.json() as EnrollmentWithRelations;
      expect(body).toMatchObject({
        userId: learner.id,
        courseId: course.id,
        progress: 0,
        completedModules: [],
        isCompleted: false,
        completedAt: null,
        course: { id: course.id, title: "Published", isPublished: true },
        user: { id: learner.id, name: "Lena", email: learner.email, role: "learner" },
      });
      expect(body.course.modules).toHaveLength(2);
      expect(allKeys(body)).not.toContain("passwordHash");
      const rows = await progressRows(ctx);
      expect(rows.enrollments).toHaveLength(1);
      expect(rows.enrollments[0]).toMatchObject({ id: body.id, progress: 0, isCompleted: false });
    });

    it("enrolls an existing learner in more courses, one call per course", async () => {
      const { adminCookie, video, course } = await setup();
      const second = await buildPublishedCourse(ctx, adminCookie, { video, title: "Second" });
      const learner = await quickLearner(ctx, { password: null });
      await enrollViaApi(ctx, adminCookie, learner.id, course.id);
      await enrollViaApi(ctx, adminCookie, learner.id, second.id);
      const mine = await call(ctx, "GET", `/api/enrollments/user/${learner.id}`, {
        cookie: adminCookie,
      });
      const titles = (mine.json() as EnrollmentWithRelations[]).map((e) => e.course.title).sort();
      expect(titles).toEqual(["Published", "Second"]);
    });

    it("refuses a duplicate with 409 and changes nothing", async () => {
      const { adminCookie, course } = await setup();
      const learner = await quickLearner(ctx);
      await enrollViaApi(ctx, adminCookie, learner.id, course.id);
      await completeViaApi(ctx, await signInAs(ctx, learner), learner.id, course, 1);
      const before = await snapshot(ctx);
      const response = await postEnrollment(ctx, adminCookie, {
        userId: learner.id,
        courseId: course.id,
      });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        message: "This learner is already enrolled in this course.",
        code: "enrollments.already_enrolled",
      });
      expect(await snapshot(ctx)).toEqual(before);
      expect(before.enrollments[0]?.progress).toBe(50);
    });

    it("creates exactly one enrollment from 50 concurrent identical requests", async () => {
      const { adminCookie, course } = await setup();
      const learner = await quickLearner(ctx, { password: null });
      const responses = await Promise.all(
        Array.from({ length: 50 }, () =>
          postEnrollment(ctx, adminCookie, { userId: learner.id, courseId: course.id }),
        ),
      );
      const codes = responses.map((r) => r.statusCode).sort();
      expect(codes.filter((c) => c === 201)).toHaveLength(1);
      expect(codes.filter((c) => c === 409)).toHaveLength(49);
      const rows = await progressRows(ctx);
      expect(rows.enrollments).toHaveLength(1);
      const created = responses.find((r) => r.statusCode === 201)!.json();
      expect(rows.enrollments[0]?.id).toBe(created.id);
    });

    it("refuses a draft course with 409 and creates nothing", async () => {
      const { adminCookie, video } = await setup();
      const draft = await buildPublishedCourse(ctx, adminCookie, { video, draft: true });
      const learner = await quickLearner(ctx, { password: null });
      const response = await postEnrollment(ctx, adminCookie, {
        userId: learner.id,
        courseId: draft.id,
      });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        message: "Only published courses can be assigned to learners.",
        code: "enrollments.course_unpublished",
      });
      expect((await progressRows(ctx)).enrollments).toEqual([]);
    });

    it("refuses an unknown course with 404", async () => {
      const { adminCookie } = await setup();
      const learner = await quickLearner(ctx, { password: null });
      const response = await postEnrollment(ctx, adminCookie, {
        userId: learner.id,
        courseId: "no-such-course",
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        message: MESSAGES.courseNotFound,
        code: "courses.not_found",
      });
      expect((await progressRows(ctx)).enrollments).toEqual([]);
    });

    it("enrolls only learners: an administrator or unknown user is refused with 400", async () => {
      const { admin, adminCookie, course } = await setup();
      const other = await quickAdmin(ctx);
      for (const userId of [admin.id, other.id, "no-such-user"]) {
        const response = await postEnrollment(ctx, adminCookie, { userId, courseId: course.id });
        expect(response.statusCode, userId).toBe(400);
        expect(response.json()).toEqual({
          message: "This person is not a learner of this portal.",
          code: "enrollments.not_a_learner",
          path: "userId",
        });
      }
      expect((await progressRows(ctx)).enrollments).toEqual([]);
    });

    it("refuses a forged initial state and malformed bodies with 400", async () => {
      const { adminCookie, course } = await setup();
      const learner = await quickLearner(ctx, { password: null });
      const ids = { userId: learner.id, courseId: course.id };
      const bodies: [Record<string, unknown>, string][] = [
        [{ ...ids, progress: 100 }, "progress"],
        [{ ...ids, isCompleted: true }, "isCompleted"],
        [{ ...ids, completedModules: [course.modules[0]!.id] }, "completedModules"],
        [{ courseId: course.id }, "userId"],
        [{ userId: learner.id }, "courseId"],
        [{ userId: "", courseId: course.id }, "userId"],
        [{ userId: 42, courseId: course.id }, "userId"],
      ];
      for (const [payload, field] of bodies) {
        const response = await call(ctx, "POST", "/api/enrollments", {
          cookie: adminCookie,
          payload,
        });
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expectFieldRefused(response, field);
      }
      expect((await progressRows(ctx)).enrollments).toEqual([]);
    });
  });

  describe("DELETE /api/enrollments/:id", () => {
    it("removes the enrollment and its completions, and nothing else", async () => {
      const { adminCookie, course } = await setup();
      const learner = await quickLearner(ctx);
      const other = await quickLearner(ctx, { password: null });
      const gone = await enrollViaApi(ctx, adminCookie, learner.id, course.id);
      const kept = await enrollViaApi(ctx, adminCookie, other.id, course.id);
      const learnerCookie = await signInAs(ctx, learner);
      await completeViaApi(ctx, learnerCookie, learner.id, course, 1);

      const response = await call(ctx, "DELETE", `/api/enrollments/${gone.id}`, {
        cookie: adminCookie,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: "Enrollment removed" });
      const rows = await progressRows(ctx);
      expect(rows.enrollments.map((e) => e.id)).toEqual([kept.id]);
      expect(rows.completions).toEqual([]);
      const mine = await call(ctx, "GET", `/api/enrollments/user/${learner.id}`, {
        cookie: learnerCookie,
      });
      expect(mine.json()).toEqual([]);
      // The learner can be enrolled again, from scratch.
      const again = await enrollViaApi(ctx, adminCookie, learner.id, course.id);
      expect(again).toMatchObject({ progress: 0, completedModules: [], isCompleted: false });
    });

    it("answers 404 for an unknown or already removed enrollment", async () => {
      const { adminCookie, course } = await setup();
      const learner = await quickLearner(ctx, { password: null });
      const enrollment = await enrollViaApi(ctx, adminCookie, learner.id, course.id);
      const remove = () =>
        call(ctx, "DELETE", `/api/enrollments/${enrollment.id}`, { cookie: adminCookie });
      expect((await remove()).statusCode).toBe(200);
      const again = await remove();
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({
        message: "Enrollment not found.",
        code: "enrollments.not_found",
      });
      const unknown = await call(ctx, "DELETE", "/api/enrollments/nope", { cookie: adminCookie });
      expect(unknown.statusCode).toBe(404);
    });
  });

  describe("GET /api/enrollments", () => {
    async function allPages(cookie: string, limit: number) {
      const pages: EnrollmentWithRelations[][] = [];
      let cursor: string | undefined;
      do {
        const query = `?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`;
        const response = await call(ctx, "GET", `/api/enrollments${query}`, { cookie });
        expect(response.statusCode).toBe(200);
        pages.push(response.json() as EnrollmentWithRelations[]);
        cursor = response.headers["x-next-cursor"] as string | undefined;
        expect(pages.length).toBeLessThan(100);
      } while (cursor);
      return pages;
    }

    it("answers an empty array and no cursor when there are none", async () => {
      const { adminCookie } = await setup();
      const response = await call(ctx, "GET", "/api/enrollments", { cookie: adminCookie });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([]);
      expect(response.headers["x-next-cursor"]).toBeUndefined();
    });

    it("pages all enrollments newest first, each with its course and user", async () => {
      const { adminCookie, video, course } = await setup();
      const second = await buildPublishedCourse(ctx, adminCookie, { video, title: "Second" });
      const a = await quickLearner(ctx, { name: "A" });
      const b = await quickLearner(ctx, { name: "B", password: null });
      const c = await quickLearner(ctx, { name: "C", password: null });
      const created = [
        await enrollViaApi(ctx, adminCookie, a.id, course.id),
        await enrollViaApi(ctx, adminCookie, a.id, second.id),
        await enrollViaApi(ctx, adminCookie, b.id, course.id),
        await enrollViaApi(ctx, adminCookie, c.id, course.id),
        await enrollViaApi(ctx, adminCookie, c.id, second.id),
      ];
      await completeViaApi(ctx, await signInAs(ctx, a), a.id, course, 1);
      const pages = await allPages(adminCookie, 2);
      expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
      const all = pages.flat();
      expect(all.map((e) => e.id)).toEqual(created.map((e) => e.id).reverse());
      const first = all.find((e) => e.userId === a.id && e.courseId === course.id)!;
      expect(first).toMatchObject({
        progress: 50,
        completedModules: [course.modules[0]!.id],
        course: { id: course.id, title: "Published" },
        user: { id: a.id, name: "A" },
      });
      for (const e of all) {
        expect(e.course.id).toBe(e.courseId);
        expect(e.user.id).toBe(e.userId);
      }
    });

    it("finds enrollments by the learner's name or email or the course's title (q)", async () => {
      const { adminCookie, video, course } = await setup();
      const second = await buildPublishedCourse(ctx, adminCookie, { video, title: "Joins 100%" });
      const ada = await quickLearner(ctx, { name: "Ada Lovelace", password: null });
      const bob = await quickLearner(ctx, {
        name: "Bob",
        email: "bob.builder@example.com",
        password: null,
      });
      const adaFirst = await enrollViaApi(ctx, adminCookie, ada.id, course.id);
      const bobFirst = await enrollViaApi(ctx, adminCookie, bob.id, course.id);
      const bobSecond = await enrollViaApi(ctx, adminCookie, bob.id, second.id);
      const found = async (q: string) => {
        const url = `/api/enrollments?q=${encodeURIComponent(q)}`;
        const response = await call(ctx, "GET", url, { cookie: adminCookie });
        expect(response.statusCode, response.body).toBe(200);
        return (response.json() as EnrollmentWithRelations[]).map((e) => e.id);
      };
      expect(await found("lovelace")).toEqual([adaFirst.id]);
      expect(await found("BUILDER@")).toEqual([bobSecond.id, bobFirst.id]);
      expect(await found("joins 100%")).toEqual([bobSecond.id]);
      // LIKE's wildcards are taken as they are written.
      expect(await found("%")).toEqual([bobSecond.id]);
      expect(await found("nobody at all")).toEqual([]);
      expect(await found("")).toEqual([bobSecond.id, bobFirst.id, adaFirst.id]);
    });

    it("pages enrollments created in the same instant without a gap", async () => {
      const { adminCookie, course } = await setup();
      await ctx.database.db.execute(sql`
        insert into users (id, name, email, role, status, is_registered_by_admin)
        select 'u' || n, 'U ' || n, 'u' || n || '@example.com', 'learner', 'active', true
        from generate_series(1, 5) as n`);
      await ctx.database.db.execute(sql`
        insert into enrollments (id, user_id, course_id, created_at)
        select 'e' || n, 'u' || n, ${course.id},
          timestamptz '2026-03-01 12:00:00.123' + (n / 2) * interval '1 microsecond'
        from generate_series(1, 5) as n`);
      const ids = (await allPages(adminCookie, 2)).flat().map((e) => e.id);
      expect(ids).toEqual(["e5", "e4", "e3", "e2", "e1"]);
    });

    it("refuses a malformed cursor with 400", async () => {
      const { adminCookie } = await setup();
      const response = await call(ctx, "GET", "/api/enrollments?cursor=%%%", {
        cookie: adminCookie,
      });
      expect(response.statusCode).toBe(400);
    });
  });

  describe("GET /api/enrollments/user/:userId", () => {
    it("lets a learner read their own, an administrator anyone's, and no learner another's", async () => {
      const { adminCookie, video, course } = await setup();
      const second = await buildPublishedCourse(ctx, adminCookie, { video, title: "Second" });
      const me = await quickLearner(ctx);
      const other = await quickLearner(ctx);
      await enrollViaApi(ctx, adminCookie, me.id, course.id);
      await enrollViaApi(ctx, adminCookie, me.id, second.id);
      await enrollViaApi(ctx, adminCookie, other.id, course.id);
      const myCookie = await signInAs(ctx, me);
      const otherCookie = await signInAs(ctx, other);
      await completeViaApi(ctx, myCookie, me.id, course, 2);

      const own = await call(ctx, "GET", `/api/enrollments/user/${me.id}`, { cookie: myCookie });
      expect(own.statusCode).toBe(200);
      const mine = own.json() as EnrollmentWithRelations[];
      // Newest first.
      expect(mine.map((e) => e.course.title)).toEqual(["Second", "Published"]);
      expect(mine[1]).toMatchObject({
        userId: me.id,
        progress: 100,
        isCompleted: true,
        completedModules: course.modules.map((m) => m.id),
        course: { id: course.id, modules: course.modules },
        user: { id: me.id },
      });
      expect(mine[1]!.completedAt).toEqual(expect.any(String));

      const theirs = await call(ctx, "GET", `/api/enrollments/user/${other.id}`, {
        cookie: myCookie,
      });
      expect(theirs.statusCode).toBe(403);
      expect(theirs.json()).toEqual({
        message: "You can only view your own enrollments.",
        code: "enrollments.not_your_enrollments",
      });
      const reverse = await call(ctx, "GET", `/api/enrollments/user/${me.id}`, {
        cookie: otherCookie,
      });
      expect(reverse.statusCode).toBe(403);

      const byAdmin = await call(ctx, "GET", `/api/enrollments/user/${other.id}`, {
        cookie: adminCookie,
      });
      expect(byAdmin.statusCode).toBe(200);
      expect((byAdmin.json() as EnrollmentWithRelations[]).map((e) => e.userId)).toEqual([
        other.id,
      ]);
      const anonymous = await call(ctx, "GET", `/api/enrollments/user/${me.id}`);
      expect(anonymous.statusCode).toBe(401);
    });

    it("answers an empty list for a learner with no enrollments", async () => {
      const learner = await quickLearner(ctx);
      const cookie = await signInAs(ctx, learner);
      const response = await call(ctx, "GET", `/api/enrollments/user/${learner.id}`, { cookie });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([]);
    });
  });

  describe("access", () => {
    it("refuses every administrator route to anonymous users (401) and learners (403)", async () => {
      const { adminCookie, course } = await setup();
      const learner = await quickLearner(ctx);
      const learnerCookie = await signInAs(ctx, learner);
      const enrollment = await enrollViaApi(ctx, adminCookie, learner.id, course.id);
      const other = await quickLearner(ctx, { password: null });
      const before = await snapshot(ctx);
      const routes = [
        ["POST", "/api/enrollments", { userId: other.id, courseId: course.id }],
        ["POST", "/api/enrollments", { userId: learner.id, courseId: course.id }],
        ["GET", "/api/enrollments", undefined],
        ["GET", "/api/enrollments?limit=1", undefined],
        ["DELETE", `/api/enrollments/${enrollment.id}`, undefined],
      ] as const;
      for (const [method, url, payload] of routes) {
        const anonymous = await call(ctx, method, url, { payload });
        expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
        expect(anonymous.json()).toEqual({
          message: MESSAGES.notSignedIn,
          code: "auth.not_signed_in",
        });
        const asLearner = await call(ctx, method, url, { cookie: learnerCookie, payload });
        expect(asLearner.statusCode, `${method} ${url}`).toBe(403);
        expect(asLearner.json()).toEqual({ message: MESSAGES.forbidden, code: "auth.forbidden" });
      }
      expect(await snapshot(ctx)).toEqual(before);
    });
  });
});
