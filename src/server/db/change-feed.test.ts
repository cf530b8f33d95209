import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type Course, DEFAULT_ACTIVITY, type User } from "../../contract";
import { courses } from "../catalogue/courses/courses.table";
import { enrollments, moduleCompletions } from "../learning/enrollments/enrollments.table";
import { sessions, users } from "../people/auth/auth.table";
import {
  buildPublishedCourse,
  call,
  enrollViaApi,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../testing/learning";
import { anotherInstance, useTestApp } from "../testing/test-app";
import { CHANGE_FEED_APPLICATION } from "./change-feed";

/**
 * Sessions and courses are cached in each instance's memory. These tests change the
 * rows behind the app's back, as another instance on the same database would (plain SQL, no
 * announcement from this process): the triggers of migration 0010 must still reach the cache.
 * PGlite delivers the notification at commit, PostgreSQL moments later on the feed's own
 * connection; through this instance's own routes the change shows on the very next request.
 */
describe("caches follow changes made anywhere", () => {
  const ctx = useTestApp({}, { syncChangesBeforeRequests: false });
  const videoPath = useSharedVideo(ctx);
  const embedded = () => ctx.database.kind === "pglite";

  async function learnerWithCourse() {
    const admin = await quickAdmin(ctx);
    const adminCookie = await signInAs(ctx, admin);
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video: await videoPath(adminCookie),
      modules: 2,
    });
    const learner = await quickLearner(ctx);
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    const cookie = await signInAs(ctx, learner);
    return { adminCookie, course, learner, cookie };
  }

  const me = (cookie: string) => call(ctx, "GET", "/api/auth/me", { cookie });
  const courseOf = (cookie: string, id: string) =>
    call(ctx, "GET", `/api/courses/${id}`, { cookie });

  /** Immediately on PGlite; within moments on PostgreSQL. */
  async function expectSoon<T>(read: () => Promise<T>, expected: T) {
    if (embedded()) expect(await read()).toEqual(expected);
    await expect.poll(read, { interval: 20 }).toEqual(expected);
  }

  it("ends a cached session deleted by another instance", async () => {
    const { cookie } = await learnerWithCourse();
    expect((await me(cookie)).statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(200);
    await ctx.database.db.delete(sessions);
    await expectSoon(async () => (await me(cookie)).statusCode, 401);
  });

  it("ends a cached session when another instance restricts the learner", async () => {
    const { cookie, learner } = await learnerWithCourse();
    expect((await me(cookie)).statusCode).toBe(200);
    await ctx.database.db
      .update(users)
      .set({ status: "restricted" })
      .where(eq(users.id, learner.id));
    await expectSoon(async () => (await me(cookie)).statusCode, 401);
  });

  it("shows a user's new name changed by another instance", async () => {
    const { cookie, learner } = await learnerWithCourse();
    expect(((await me(cookie)).json() as { user: User }).user.name).toBe(learner.name);
    await ctx.database.db
      .update(users)
      .set({ name: "Renamed Elsewhere" })
      .where(eq(users.id, learner.id));
    await expectSoon(
      async () => ((await me(cookie)).json() as { user: User }).user.name,
      "Renamed Elsewhere",
    );
  });

  it("applies this instance's own restriction and profile change on the very next request", async () => {
    const { adminCookie, cookie, learner } = await learnerWithCourse();
    const other = await quickLearner(ctx);
    const otherCookie = await signInAs(ctx, other);
    expect((await me(otherCookie)).statusCode).toBe(200);
    const profile = await call(ctx, "PUT", "/api/auth/profile", {
      cookie: otherCookie,
      payload: { name: "New Name", phone: "" },
    });
    expect(profile.statusCode).toBe(200);
    expect(((await me(otherCookie)).json() as { user: User }).user.name).toBe("New Name");

    expect((await me(cookie)).statusCode).toBe(200);
    const restrict = await call(ctx, "PATCH", `/api/users/learners/${learner.id}/restrict`, {
      cookie: adminCookie,
    });
    expect(restrict.statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it("shows a course changed by another instance, and this instance's module change at once", async () => {
    const { adminCookie, course, cookie } = await learnerWithCourse();
    expect((await courseOf(cookie, course.id)).json()).toMatchObject({ title: course.title });
    await ctx.database.db
      .update(courses)
      .set({ title: "Retitled Elsewhere" })
      .where(eq(courses.id, course.id));
    await expectSoon(
      async () => ((await courseOf(cookie, course.id)).json() as Course).title,
      "Retitled Elsewhere",
    );

    const first = course.modules[0]!;
    const updated = await call(ctx, "PUT", `/api/courses/${course.id}/modules/${first.id}`, {
      cookie: adminCookie,
      payload: { ...first, title: "Renamed Module" },
    });
    expect(updated.statusCode).toBe(200);
    const after = (await courseOf(cookie, course.id)).json() as Course;
    expect(after.modules[0]!.title).toBe("Renamed Module");
    const list = (
      await call(ctx, "GET", `/api/enrollments/user/${(await me(cookie)).json().user.id}`, {
        cookie,
      })
    ).json() as { course: Course }[];
    expect(list[0]!.course.modules[0]!.title).toBe("Renamed Module");
  });

  it("follows a learner's enrollments changed by another instance", async () => {
    const { course, cookie, learner } = await learnerWithCourse();
    const dashboard = async () =>
      (
        (await call(ctx, "GET", `/api/enrollments/user/${learner.id}`, { cookie })).json() as {
          progress: number;
        }[]
      ).map((e) => e.progress);
    expect(await dashboard()).toEqual([0]);
    expect((await courseOf(cookie, course.id)).statusCode).toBe(200);
    await ctx.database.db
      .update(enrollments)
      .set({ progress: 50 })
      .where(eq(enrollments.userId, learner.id));
    await expectSoon(dashboard, [50]);
    await ctx.database.db.delete(enrollments).where(eq(enrollments.userId, learner.id));
    await expectSoon(dashboard, []);
    await expectSoon(async () => (await courseOf(cookie, course.id)).statusCode, 404);
  });

  it("follows a learner's completions recorded or removed by another instance", async () => {
    const { course, cookie, learner } = await learnerWithCourse();
    const dashboard = async () =>
      (
        (await call(ctx, "GET", `/api/enrollments/user/${learner.id}`, { cookie })).json() as {
          id: string;
          completedModules: string[];
        }[]
      )[0]!;
    const before = await dashboard();
    expect(before.completedModules).toEqual([]);
    const first = course.modules[0]!.id;
    // Only the completion: no enrollment row changes with it (migration 0012 announces it).
    await ctx.database.db
      .insert(moduleCompletions)
      .values({ enrollmentId: before.id, moduleId: first });
    await expectSoon(async () => (await dashboard()).completedModules, [first]);
    await ctx.database.db.delete(moduleCompletions);
    await expectSoon(async () => (await dashboard()).completedModules, []);
  });

  it("drops a course's credit context when another instance edits a step's settings", async () => {
    const { adminCookie, course, cookie } = await learnerWithCourse();
    const required = async () =>
      (
        (await call(ctx, "GET", `/api/courses/${course.id}/completion`, { cookie })).json() as {
          steps: { key: string; required: boolean }[];
        }
      ).steps.find((s) => s.key === "evaluation")?.required;
    expect(await required()).toBe(false);
    // Another instance of the portal on the same database: its edit publishes the event
    // that announces the change at commit, with no trigger on the settings' table.
    const other = await anotherInstance(ctx);
    try {
      const saved = await other.inject({
        method: "PUT",
        url: `/api/courses/${course.id}/activity`,
        headers: { cookie: adminCookie },
        payload: { ...DEFAULT_ACTIVITY, evaluationRequired: true },
      });
      expect(saved.statusCode, saved.body).toBe(200);
    } finally {
      await other.close();
    }
    await expectSoon(required, true);
  });

  it("sync() waits until a change made elsewhere has reached the caches", async () => {
    const { cookie, learner } = await learnerWithCourse();
    expect(((await me(cookie)).json() as { user: User }).user.name).toBe(learner.name);
    for (let round = 0; round < 20; round++) {
      const name = `Synced ${round}`;
      await ctx.database.db.update(users).set({ name }).where(eq(users.id, learner.id));
      await ctx.database.changes.sync();
      expect(((await me(cookie)).json() as { user: User }).user.name).toBe(name);
    }
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "reads through while the feed's connection is down, and caches again once it is back",
    async () => {
      const { cookie, learner } = await learnerWithCourse();
      expect((await me(cookie)).statusCode).toBe(200);
      // Cut the listening connection, as a database restart or a network fault would.
      await ctx.database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${CHANGE_FEED_APPLICATION} and datname = current_database()`,
      );
      await expect.poll(() => ctx.database.changes.live).toBe(false);
      // Nothing announces this change, and nothing is cached meanwhile: the next read sees it.
      await ctx.database.db
        .update(users)
        .set({ name: "While Down" })
        .where(eq(users.id, learner.id));
      expect(((await me(cookie)).json() as { user: User }).user.name).toBe("While Down");
      await expect.poll(() => ctx.database.changes.live).toBe(true);
      await ctx.database.db.update(users).set({ name: "After" }).where(eq(users.id, learner.id));
      await expectSoon(
        async () => ((await me(cookie)).json() as { user: User }).user.name,
        "After",
      );
    },
  );
});
