import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { courseSchema, enrollmentWithRelationsSchema } from "../../../contract";
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

/**
 * GET /api/courses/{id}, GET /api/enrollments/user/{id}, GET /api/enrollments and
 * POST /api/progress/update send JSON built from the
 * catalogue's cached course JSON instead of running the zod serializer per request. Their
 * bodies must be exactly what the response schema would have produced: nothing more, nothing
 * missing, every type right.
 */
describe("pre-serialized answers match their response schemas", () => {
  const ctx = useTestApp();
  const videoPath = useSharedVideo(ctx);

  it("sends a course and a learner's enrollments exactly as the schemas serialize them", async () => {
    const admin = await quickAdmin(ctx);
    const adminCookie = await signInAs(ctx, admin);
    const video = await videoPath(adminCookie);
    const first = await buildPublishedCourse(ctx, adminCookie, { video, modules: 3 });
    const second = await buildPublishedCourse(ctx, adminCookie, { video, modules: 1 });
    const learner = await quickLearner(ctx, { phone: null });
    await enrollViaApi(ctx, adminCookie, learner.id, first.id);
    await enrollViaApi(ctx, adminCookie, learner.id, second.id);
    const cookie = await signInAs(ctx, learner);
    await completeViaApi(ctx, cookie, learner.id, first, 1);
    await completeViaApi(ctx, cookie, learner.id, second, 1);

    // POST /api/progress/update answers the enrollment the same way.
    const completed = await postProgress(ctx, cookie, {
      userId: learner.id,
      courseId: first.id,
      moduleId: first.modules[1]!.id,
    });
    expect(completed.statusCode).toBe(200);
    expect(completed.headers["content-type"]).toMatch(/^application\/json/);
    const completedBody = completed.json();
    const completedParsed = enrollmentWithRelationsSchema.parse(completedBody);
    expect(completedBody).toStrictEqual(completedParsed);
    expect(JSON.stringify(completedBody)).toBe(JSON.stringify(completedParsed));
    expect([completedParsed.progress, completedParsed.completedModules]).toEqual([
      67,
      first.modules.slice(0, 2).map((m) => m.id),
    ]);
    expect(completed.body).not.toMatch(/passwordHash|password_hash|scrypt|idHash/i);

    const course = await call(ctx, "GET", `/api/courses/${first.id}`, { cookie });
    expect(course.statusCode).toBe(200);
    expect(course.headers["content-type"]).toMatch(/^application\/json/);
    const courseBody = course.json();
    expect(courseBody).toStrictEqual(courseSchema.parse(courseBody));
    expect(JSON.stringify(courseBody)).toBe(JSON.stringify(courseSchema.parse(courseBody)));

    for (const viewer of [cookie, adminCookie]) {
      const list = await call(ctx, "GET", `/api/enrollments/user/${learner.id}`, {
        cookie: viewer,
      });
      expect(list.statusCode).toBe(200);
      expect(list.headers["content-type"]).toMatch(/^application\/json/);
      const body = list.json() as unknown[];
      const parsed = z.array(enrollmentWithRelationsSchema).parse(body);
      expect(body).toStrictEqual(parsed);
      expect(body).toHaveLength(2);
      expect(
        parsed.map((e) => [e.courseId, e.completedModules, e.progress, e.isCompleted]),
      ).toEqual([
        [second.id, [second.modules[0]!.id], 100, true],
        [first.id, first.modules.slice(0, 2).map((m) => m.id), 67, false],
      ]);
      expect(list.body).not.toMatch(/passwordHash|password_hash|scrypt|idHash/i);
    }

    // Every enrollment, a page at a time, for administrators.
    const page = await call(ctx, "GET", "/api/enrollments?limit=1", { cookie: adminCookie });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^application\/json/);
    const rest = await call(
      ctx,
      "GET",
      `/api/enrollments?limit=5&cursor=${encodeURIComponent(String(page.headers["x-next-cursor"]))}`,
      { cookie: adminCookie },
    );
    const all = [...(page.json() as unknown[]), ...(rest.json() as unknown[])];
    const parsedAll = z.array(enrollmentWithRelationsSchema).parse(all);
    expect(all).toStrictEqual(parsedAll);
    expect(JSON.stringify(all)).toBe(JSON.stringify(parsedAll));
    expect(parsedAll.map((e) => [e.courseId, e.user.id, e.completedModules.length])).toEqual([
      [second.id, learner.id, 1],
      [first.id, learner.id, 2],
    ]);
    expect(page.body + rest.body).not.toMatch(/passwordHash|password_hash|scrypt|idHash/i);

    const nobody = await call(ctx, "GET", "/api/enrollments/user/unknown-user", {
      cookie: adminCookie,
    });
    expect(nobody.json()).toEqual([]);
  });

  it("a learner's cached enrollments answer follows every change it shows", async () => {
    const admin = await quickAdmin(ctx);
    const adminCookie = await signInAs(ctx, admin);
    const video = await videoPath(adminCookie);
    const course = await buildPublishedCourse(ctx, adminCookie, { video, modules: 2 });
    const other = await buildPublishedCourse(ctx, adminCookie, { video, modules: 1 });
    const learner = await quickLearner(ctx);
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    const cookie = await signInAs(ctx, learner);
    const read = async () => {
      const list = await call(ctx, "GET", `/api/enrollments/user/${learner.id}`, { cookie });
      return z.array(enrollmentWithRelationsSchema).parse(list.json());
    };
    const sameAsBefore = await read();
    expect(await read()).toStrictEqual(sameAsBefore);

    // A completion through this instance.
    await completeViaApi(ctx, cookie, learner.id, course, 1);
    expect((await read())[0]!.progress).toBe(50);
    // A new enrollment.
    await enrollViaApi(ctx, adminCookie, learner.id, other.id);
    expect((await read()).map((e) => e.courseId)).toEqual([other.id, course.id]);
    // The course edited.
    const edited = await call(ctx, "PUT", `/api/courses/${course.id}`, {
      cookie: adminCookie,
      payload: {
        title: "Renamed course",
        description: course.description,
        category: course.category,
        duration: course.duration,
      },
    });
    expect(edited.statusCode).toBe(200);
    expect((await read())[1]!.course.title).toBe("Renamed course");
    // Changes written by another instance: the learner renamed, progress and a module.
    const { db } = ctx.database;
    await db.execute(sql`update users set name = 'Renamed Learner' where id = ${learner.id}`);
    expect((await read()).map((e) => e.user.name)).toEqual(["Renamed Learner", "Renamed Learner"]);
    await db.execute(sql`update enrollments set progress = 0 where user_id = ${learner.id}`);
    expect((await read()).map((e) => e.progress)).toEqual([0, 0]);
    await db.execute(sql`update modules set title = 'Retitled' where id = ${other.modules[0]!.id}`);
    expect((await read())[0]!.course.modules[0]!.title).toBe("Retitled");
    await db.execute(
      sql`delete from enrollments where user_id = ${learner.id} and course_id = ${other.id}`,
    );
    expect((await read()).map((e) => e.courseId)).toEqual([course.id]);
  });

  it("a page of every enrollment is answered again from memory until anything it shows changes", async () => {
    const admin = await quickAdmin(ctx);
    const adminCookie = await signInAs(ctx, admin);
    const video = await videoPath(adminCookie);
    const course = await buildPublishedCourse(ctx, adminCookie, { video, modules: 2 });
    const [ann, bob, cleo] = [
      await quickLearner(ctx),
      await quickLearner(ctx),
      await quickLearner(ctx),
    ];
    await enrollViaApi(ctx, adminCookie, ann.id, course.id);
    await enrollViaApi(ctx, adminCookie, bob.id, course.id);
    const page = async () => {
      const response = await call(ctx, "GET", "/api/enrollments?limit=2", { cookie: adminCookie });
      return z.array(enrollmentWithRelationsSchema).parse(response.json());
    };
    const users = async () => (await page()).map((e) => e.userId);
    expect(await users()).toEqual([bob.id, ann.id]);
    expect(await users()).toEqual([bob.id, ann.id]);

    // Written straight into the database, as another instance would.
    const { db } = ctx.database;
    await db.execute(sql`update enrollments set progress = 50 where user_id = ${ann.id}`);
    expect((await page())[1]!.progress).toBe(50);
    await db.execute(sql`update users set name = 'Renamed' where id = ${bob.id}`);
    expect((await page())[0]!.user.name).toBe("Renamed");
    await db.execute(sql`update courses set title = 'Retitled' where id = ${course.id}`);
    expect((await page())[0]!.course.title).toBe("Retitled");
    // An enrollment added or removed moves the pages, whoever's it is.
    await enrollViaApi(ctx, adminCookie, cleo.id, course.id);
    expect(await users()).toEqual([cleo.id, bob.id]);
    await db.execute(sql`delete from enrollments where user_id = ${cleo.id}`);
    expect(await users()).toEqual([bob.id, ann.id]);
  });
});
