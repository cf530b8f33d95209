import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Course, ModuleWatch } from "../../../contract";
import { objects } from "../../platform/objects/objects.table";
import { addModule, createCourse, publish, validModule } from "../../testing/courses";
import {
  call,
  enrollViaApi,
  nextModuleNumber,
  postProgress,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { useWatchingTestApp } from "../../testing/watching";
import { moduleWatch } from "./watching.table";

describe("heartbeats at the edges of a video's length", () => {
  const { ctx, clock } = useWatchingTestApp();
  const videoPath = useSharedVideo(ctx);

  /** A published course of one module stated as `minutes`, whose video's length is unread. */
  async function setup(minutes: number, settings?: Record<string, unknown>) {
    const admin = await quickAdmin(ctx);
    const adminCookie = await signInAs(ctx, admin);
    const video = await videoPath(adminCookie);
    await ctx.database.db
      .update(objects)
      .set({ durationSeconds: null })
      .where(eq(objects.id, video.split("/").pop()!));
    const created = await createCourse(ctx, adminCookie, {});
    await addModule(ctx, adminCookie, created.id, {
      ...validModule(video, nextModuleNumber()),
      duration: minutes,
    });
    let course: Course = await publish(ctx, adminCookie, created.id);
    if (settings) {
      const response = await call(ctx, "PATCH", `/api/courses/${course.id}/settings`, {
        cookie: adminCookie,
        payload: settings,
      });
      expect(response.statusCode, response.body).toBe(200);
      course = response.json() as Course;
    }
    expect(course.modules[0]!.videoSeconds ?? null).toBeNull();
    const learner = await quickLearner(ctx);
    const cookie = await signInAs(ctx, learner);
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    const moduleId = course.modules[0]!.id;
    const beat = (body: Record<string, unknown>) =>
      call(ctx, "POST", "/api/progress/heartbeat", {
        cookie,
        payload: { courseId: course.id, moduleId, intervals: [], position: 0, ...body },
      });
    const complete = () =>
      postProgress(ctx, cookie, { userId: learner.id, courseId: course.id, moduleId });
    return { course, learner, cookie, beat, complete };
  }

  it("does not take a 1-second video for a module stated as 1 minute in a verified course", async () => {
    const { beat, complete } = await setup(1, { completionPolicy: "verified" });
    // The player reports a 1-second video, plays that second, and marks the module complete.
    const first = await beat({ duration: 1 });
    clock.advance(1);
    const played = await beat({ duration: 1, intervals: [[0, 1]], position: 1 });
    const completed = await complete();
    // One second of watching must not complete a module stated as a minute long.
    expect(
      {
        first: first.statusCode,
        played: played.json().watchedPercent,
        completed: completed.statusCode,
      },
      completed.body,
    ).toEqual({ first: 400, played: undefined, completed: 409 });
  });

  it("answers a clear 4xx or counts nothing, never a 500, for an interval in the end slack", async () => {
    const { beat } = await setup(5);
    // The server allows intervals to end up to 0.5 s past the video (players report the last
    // frame late); an interval wholly inside that slack is clipped to a negative length.
    const response = await beat({ duration: 300, intervals: [[300.4, 300.5]], position: 300 });
    expect(response.statusCode, response.body).toBeLessThan(500);
    const rows = await ctx.database.db.select().from(moduleWatch);
    for (const row of rows) expect(row.seatSeconds).toBeGreaterThanOrEqual(0);
  });

  it("never lowers the seat time already earned with a report of the end slack", async () => {
    const { beat } = await setup(5);
    expect((await beat({ duration: 300 })).statusCode).toBe(200);
    clock.advance(20);
    const watched = await beat({ duration: 300, intervals: [[0, 20]], position: 20 });
    expect(watched.json()).toMatchObject({ seatSeconds: 20, watchedSeconds: 20 });
    clock.advance(5);
    const intervals = Array.from({ length: 40 }, () => [300.5, 300.5]);
    const response = await beat({ duration: 300, intervals, position: 300 });
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as ModuleWatch).seatSeconds).toBeGreaterThanOrEqual(20);
  });
});
