import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type Course, type CourseWatch, type ModuleWatch, WATCH_MESSAGES } from "../../../contract";
import { objects } from "../../platform/objects/objects.table";
import {
  buildPublishedCourse,
  call,
  enrollViaApi,
  postProgress,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { anotherInstance } from "../../testing/test-app";
import { useWatchingTestApp } from "../../testing/watching";
import { moduleWatch, watchClocks } from "./watching.table";

/** validModule states 5 minutes: the player reports the real length, here 300 s. */
const DURATION = 300;

describe("verified watching", { timeout: 120_000 }, () => {
  const { ctx, clock } = useWatchingTestApp();
  const videoPath = useSharedVideo(ctx);

  async function setup(
    options: {
      modules?: number;
      settings?: Record<string, unknown>;
      realLength?: boolean;
      /** A learner of an earlier setup, enrolled in this course too. */
      learner?: { learner: Awaited<ReturnType<typeof quickLearner>>; cookie: string };
    } = {},
  ) {
    const admin = await quickAdmin(ctx);
    const adminCookie = await signInAs(ctx, admin);
    const video = await videoPath(adminCookie);
    if (!options.realLength) {
      // The scenarios play a module stated as 5 minutes. A video's real length, read on upload,
      // is what a heartbeat must match; these use one whose length could not be read, which
      // the module's stated minutes then stand for.
      const id = video.split("/").pop()!;
      await ctx.database.db
        .update(objects)
        .set({ durationSeconds: null })
        .where(eq(objects.id, id));
    }
    let course: Course = await buildPublishedCourse(ctx, adminCookie, {
      video,
      modules: options.modules ?? 2,
    });
    if (options.settings) {
      const response = await call(ctx, "PATCH", `/api/courses/${course.id}/settings`, {
        cookie: adminCookie,
        payload: options.settings,
      });
      expect(response.statusCode, response.body).toBe(200);
      course = response.json() as Course;
    }
    const learner = options.learner?.learner ?? (await quickLearner(ctx));
    const cookie = options.learner?.cookie ?? (await signInAs(ctx, learner));
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    const moduleId = course.modules[0]!.id;
    const beat = (body: Record<string, unknown> = {}, who = cookie) =>
      call(ctx, "POST", "/api/progress/heartbeat", {
        cookie: who,
        payload: {
          courseId: course.id,
          moduleId,
          intervals: [],
          position: 0,
          duration: DURATION,
          ...body,
        },
      });
    /** A heartbeat that must be accepted; its merged state. */
    const ok = async (body: Record<string, unknown> = {}) => {
      const response = await beat(body);
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as ModuleWatch;
    };
    /** As if `seconds` of wall-clock time had passed (the app's watching clock is fake). */
    const elapse = async (seconds: number) => clock.advance(seconds);
    const complete = (index = 0) =>
      postProgress(ctx, cookie, {
        userId: learner.id,
        courseId: course.id,
        moduleId: course.modules[index]!.id,
      });
    /** Plays [from, to) in 30-second heartbeats at wall-clock pace. */
    const watch = async (from: number, to: number) => {
      let state: ModuleWatch | undefined;
      if (from === 0) await ok();
      for (let t = from; t < to; t += 30) {
        await elapse(30);
        state = await ok({
          intervals: [[t, Math.min(to, t + 30)]],
          position: Math.min(to, t + 30),
        });
      }
      return state!;
    };
    return {
      admin,
      adminCookie,
      course,
      learner,
      cookie,
      moduleId,
      beat,
      ok,
      elapse,
      complete,
      watch,
    };
  }

  const storedRows = () => ctx.database.db.select().from(moduleWatch);

  describe("merging heartbeats", () => {
    it("credits played seconds at wall-clock pace and records seat time and position", async () => {
      const { ok, elapse } = await setup();
      const start = await ok();
      expect(start).toMatchObject({ watchedSeconds: 0, seatSeconds: 0, durationSeconds: DURATION });
      await elapse(10);
      const state = await ok({ intervals: [[0, 10]], position: 10 });
      expect(state).toMatchObject({
        watchedSeconds: 10,
        watchedPercent: 3,
        seatSeconds: 10,
        position: 10,
        canComplete: true,
        remainingSeconds: 0,
      });
    });

    it("counts overlapping intervals and replays once", async () => {
      const { ok, elapse } = await setup();
      await ok();
      await elapse(10);
      await ok({ intervals: [[0, 10]] });
      await elapse(10);
      // Rewound to 5 and played on to 15: only 10..15 is new; the replay still is seat time.
      const state = await ok({ intervals: [[5, 15]] });
      expect(state.watchedSeconds).toBe(15);
      expect(state.seatSeconds).toBe(20);
      await elapse(10);
      const replay = await ok({ intervals: [[0, 10]] });
      expect(replay.watchedSeconds).toBe(15);
      const [row] = await storedRows();
      expect(row!.intervals).toEqual([[0, 15]]);
    });

    it("does not count the part skipped by seeking ahead", async () => {
      const { ok, elapse } = await setup();
      await ok();
      await elapse(10);
      // Played 0..4, jumped to 200, played 200..206.
      const state = await ok({
        intervals: [
          [0, 4],
          [200, 206],
        ],
        position: 206,
      });
      expect(state.watchedSeconds).toBe(10);
      expect(state.position).toBe(206);
      const [row] = await storedRows();
      expect(row!.intervals).toEqual([
        [0, 4],
        [200, 206],
      ]);
    });

    it("credits 2x playback no faster than the wall clock", async () => {
      const { ok, elapse } = await setup();
      await ok();
      await elapse(10);
      const state = await ok({ intervals: [[0, 20]], position: 20, playbackRate: 2 });
      // 10 s passed: 10 s count as watched and seated, the first 10 s of what played.
      expect(state).toMatchObject({ watchedSeconds: 10, seatSeconds: 10, position: 20 });
      // Nothing is left of those 10 s: the next beat right away earns nothing.
      const next = await ok({ intervals: [[20, 22]], playbackRate: 2 });
      expect(next).toMatchObject({ watchedSeconds: 10, seatSeconds: 10 });
    });

    it("counts nothing played in a hidden tab, and two tabs share one wall clock", async () => {
      const { ok, elapse } = await setup();
      await ok();
      await elapse(10);
      const hidden = await ok({ intervals: [[0, 10]], visible: false, position: 10 });
      expect(hidden).toMatchObject({ watchedSeconds: 0, seatSeconds: 0, position: 10 });
      await elapse(10);
      const tabA = await ok({ intervals: [[0, 10]] });
      expect(tabA.watchedSeconds).toBe(10);
      // A second tab reports the same 10 s of wall-clock time for another part of the video.
      const tabB = await ok({ intervals: [[100, 105]] });
      expect(tabB).toMatchObject({ watchedSeconds: 10, seatSeconds: 10 });
    });

    it("refuses forged reports: more playback than the elapsed time allows", async () => {
      const { ok, beat, elapse } = await setup();
      await ok();
      const forged = await beat({ intervals: [[0, DURATION]], position: DURATION });
      expect(forged.statusCode).toBe(400);
      expect(forged.json()).toEqual({
        message: WATCH_MESSAGES.impossibleReport,
        code: "watching.impossible_report",
      });
      const [row] = await storedRows();
      expect(row!.watchedSeconds).toBe(0);
      expect(row!.heartbeats).toBe(1);
      // A long idle gap does not bank credit: at most the last 30 s count.
      await elapse(600);
      const state = await ok({ intervals: [[0, DURATION]], position: DURATION });
      expect(state).toMatchObject({ watchedSeconds: 30, seatSeconds: 30 });
    });

    it("takes any length in a manual course, but not once the course is verified", async () => {
      const { ok, beat, elapse, adminCookie, course, cookie } = await setup();
      await ok({ duration: 3 });
      await elapse(3);
      expect(await ok({ duration: 3, intervals: [[0, 3]], position: 2 })).toMatchObject({
        watchedPercent: 100,
        position: 2,
      });
      await call(ctx, "PATCH", `/api/courses/${course.id}/settings`, {
        cookie: adminCookie,
        payload: { completionPolicy: "verified" },
      });
      // The 3-second record no longer counts, and a 3-second report is refused.
      const mine = await call(ctx, "GET", `/api/progress/watch/${course.id}`, { cookie });
      expect((mine.json() as CourseWatch).modules[0]).toMatchObject({
        watchedSeconds: 0,
        durationSeconds: null,
      });
      const refused = await beat({ duration: 3 });
      expect(refused.json()).toEqual({
        message: WATCH_MESSAGES.durationMismatch,
        code: "watching.duration_mismatch",
      });
      expect(await ok()).toMatchObject({ watchedSeconds: 0, durationSeconds: DURATION });
    });

    it("holds the reported length to the video's real length, once the upload could read it", async () => {
      const { ok, beat, course } = await setup({
        settings: { completionPolicy: "verified" },
        realLength: true,
      });
      const real = course.modules[0]!.videoSeconds!;
      expect(real).toBeGreaterThan(0);
      // The module states 5 minutes, but its video is shorter: the stated length is refused.
      expect((await beat({ duration: DURATION })).json()).toEqual({
        message: WATCH_MESSAGES.durationMismatch,
        code: "watching.duration_mismatch",
      });
      // The real length, as a player rounds it, is taken.
      const rounded = Math.round(real * 10) / 10;
      expect(await ok({ duration: rounded })).toMatchObject({ durationSeconds: rounded });
    });

    it("refuses intervals and positions beyond the video, and lengths that do not fit", async () => {
      const { ok, beat, elapse } = await setup({ settings: { completionPolicy: "verified" } });
      // First report of a 5-minute module's length as 2 s: a forged short video.
      const short = await beat({ duration: 2 });
      expect(short.statusCode).toBe(400);
      expect(short.json()).toEqual({
        message: WATCH_MESSAGES.durationMismatch,
        code: "watching.duration_mismatch",
      });
      expect(await storedRows()).toEqual([]);
      await ok();
      await elapse(10);
      const beyond = await beat({ intervals: [[DURATION - 2, DURATION + 5]] });
      expect(beyond.statusCode).toBe(400);
      expect(beyond.json()).toEqual({
        message: WATCH_MESSAGES.beyondDuration,
        code: "watching.beyond_duration",
      });
      expect((await beat({ position: DURATION + 10 })).statusCode).toBe(400);
      // Once fixed, the length cannot be changed by a later report.
      const changed = await beat({ duration: DURATION - 60 });
      expect(changed.json()).toEqual({
        message: WATCH_MESSAGES.durationMismatch,
        code: "watching.duration_mismatch",
      });
      for (const intervals of [[[5, 1]], [[-1, 3]], [[0, "x"]], [[0]]]) {
        expect((await beat({ intervals })).statusCode).toBe(400);
      }
      expect((await beat({ intervals: [], unknown: 1 })).statusCode).toBe(400);
      const [row] = await storedRows();
      expect(row).toMatchObject({ watchedSeconds: 0, heartbeats: 1 });
    });

    it("loses nothing when heartbeats arrive at the same time", async () => {
      const { ok, elapse } = await setup();
      await ok();
      await elapse(30);
      // Six concurrent beats of 5 s each: 30 s within the 30 s that passed, all kept.
      await Promise.all([0, 1, 2, 3, 4, 5].map((i) => ok({ intervals: [[i * 10, i * 10 + 5]] })));
      const [row] = await storedRows();
      expect(row).toMatchObject({ watchedSeconds: 30, seatSeconds: 30, heartbeats: 7 });
      expect(row!.intervals).toHaveLength(6);
      // Ten more at once after 10 s: together they earn the 10 s, no more.
      await elapse(10);
      await Promise.all(
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) =>
          ok({ intervals: [[100 + i * 10, 103 + i * 10]] }),
        ),
      );
      const [after] = await storedRows();
      expect(after).toMatchObject({ watchedSeconds: 40, seatSeconds: 40, heartbeats: 17 });
    });

    it("writes many learners' simultaneous heartbeats together, each by the rule", async () => {
      const learners: Awaited<ReturnType<typeof setup>>[] = [];
      for (let i = 0; i < 6; i++) learners.push(await setup());
      for (const l of learners.slice(0, 5)) await l.ok();
      clock.advance(30);
      const [honest, cheat, fresh] = [learners.slice(0, 4), learners[4]!, learners[5]!];
      // Four play 30 s; one reports far more than 30 s allows; one never beat before and
      // reports a minute at once. The two refusals must not cost the others anything.
      const answers = await Promise.all([
        ...honest.map((l) => l.beat({ intervals: [[0, 30]], position: 30 })),
        cheat.beat({ intervals: [[0, 200]], position: 200 }),
        fresh.beat({ intervals: [[0, 60]], position: 60 }),
      ]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 400, 400]);
      expect(answers[4]!.json()).toEqual({
        message: WATCH_MESSAGES.impossibleReport,
        code: "watching.impossible_report",
      });
      const rows = await storedRows();
      for (const l of honest) {
        expect(rows.find((r) => r.userId === l.learner.id)).toMatchObject({
          watchedSeconds: 30,
          seatSeconds: 30,
          heartbeats: 2,
        });
      }
      expect(rows.find((r) => r.userId === cheat.learner.id)).toMatchObject({
        watchedSeconds: 0,
        heartbeats: 1,
      });
      expect(rows.find((r) => r.userId === fresh.learner.id)).toBeUndefined();
      const clocks = await ctx.database.db.select().from(watchClocks);
      expect(clocks.find((c) => c.userId === fresh.learner.id)).toBeUndefined();
      // The honest learners' clocks moved on to this beat; the refused one's did not.
      const beatAt = (l: (typeof learners)[number]) =>
        clocks.find((c) => c.userId === l.learner.id)!.lastBeatAt.getTime();
      for (const l of honest) expect(beatAt(l)).toBe(clock.now().getTime());
      expect(beatAt(cheat)).toBe(clock.now().getTime() - 30_000);
    });

    it("allows only the enrolled learner, on unlocked modules", async () => {
      const { course, adminCookie, beat } = await setup();
      expect((await beat({}, adminCookie)).statusCode).toBe(403);
      expect((await beat({}, "")).statusCode).toBe(401);
      const stranger = await signInAs(ctx, await quickLearner(ctx));
      expect((await beat({}, stranger)).statusCode).toBe(403);
      const locked = await beat({ moduleId: course.modules[1]!.id });
      expect(locked.statusCode).toBe(409);
      expect((await beat({ moduleId: "module_1234567890999" })).statusCode).toBe(404);
      expect((await beat({ courseId: "nope" })).statusCode).toBe(404);
      expect(await storedRows()).toEqual([]);
    });
  });

  describe("one wall clock per learner", () => {
    /** What all of a learner's records count together, over every course and module. */
    const totals = async (userId: string) => {
      const rows = (await storedRows()).filter((r) => r.userId === userId);
      return {
        watched: rows.reduce((sum, r) => sum + r.watchedSeconds, 0),
        seat: rows.reduce((sum, r) => sum + r.seatSeconds, 0),
      };
    };
    const notWatched = (percent: number) => ({
      message: WATCH_MESSAGES.notWatchedEnough(percent),
      code: "watching.not_watched_enough",
    });

    it("two players in parallel earn the wall-clock time that passed, not twice it", async () => {
      // 5 % of the 300 s video (15 s) and no seat time, the course default.
      const { ok, beat, elapse, complete, course, cookie, learner } = await setup({
        settings: { completionPolicy: "verified", minWatchPercent: 5 },
      });
      // The learner watched a while ago and left: the idle time is not banked for later.
      await ok();
      await elapse(600);
      // Two tabs open the module and play at once, each another half of the video.
      await Promise.all([ok(), ok({ position: 150 })]);
      for (const t of [0, 5]) {
        await elapse(5);
        const answers = await Promise.all([
          beat({ intervals: [[t, t + 5]], position: t + 5 }),
          beat({ intervals: [[150 + t, 155 + t]], position: 155 + t }),
        ]);
        expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
      }
      // 20 s of video played in 10 s: 10 s count, and the module cannot be completed.
      expect(await totals(learner.id)).toEqual({ watched: 10, seat: 10 });
      const mine = await call(ctx, "GET", `/api/progress/watch/${course.id}`, { cookie });
      expect((mine.json() as CourseWatch).modules[0]).toMatchObject({
        watchedSeconds: 10,
        watchedPercent: 3,
        canComplete: false,
        remainingSeconds: 5,
      });
      expect((await complete()).json()).toEqual(notWatched(5));
      // One tab plays on alone for 5 s: 15 s, the share the course asks for.
      await elapse(5);
      const alone = await ok({ intervals: [[20, 25]], position: 25 });
      expect(alone).toMatchObject({ watchedSeconds: 15, watchedPercent: 5, canComplete: true });
      expect((await complete()).statusCode).toBe(200);
    });

    it("a player at 2x earns the wall-clock time only, with or without a seat-time rule", async () => {
      const rules = [
        // This player's start never reached the server: the idle time before stays unearned.
        { settings: { minWatchPercent: 10 }, refusal: notWatched(10), started: false },
        {
          started: true,
          settings: { minWatchPercent: 5, minSeatSeconds: 20 },
          refusal: {
            message: WATCH_MESSAGES.notSeatedEnough(20),
            code: "watching.not_seated_enough",
          },
        },
      ];
      for (const { settings, refusal, started } of rules) {
        const { ok, elapse, complete } = await setup({
          settings: { completionPolicy: "verified", ...settings },
        });
        await ok();
        await elapse(600);
        if (started) await ok({ playbackRate: 2 });
        let state: ModuleWatch | undefined;
        for (const t of [0, 10, 20]) {
          await elapse(5);
          state = await ok({ intervals: [[t, t + 10]], position: t + 10, playbackRate: 2 });
        }
        // 30 s of video (10 % of it) played in 15 s: 15 s count as watched and as seat time.
        expect(state).toMatchObject({
          watchedSeconds: 15,
          seatSeconds: 15,
          watchedPercent: 5,
          position: 30,
          canComplete: false,
        });
        expect((await complete()).json()).toEqual(refusal);
      }
    });

    it("counts one clock across courses and devices: two courses played at once earn the time once", async () => {
      const first = await setup();
      // The learner's second device, with a session of its own, plays another course.
      const device = await signInAs(ctx, first.learner);
      const second = await setup({ learner: { learner: first.learner, cookie: device } });
      await Promise.all([first.ok(), second.ok()]);
      for (const t of [0, 5, 10]) {
        clock.advance(5);
        await Promise.all([
          first.ok({ intervals: [[t, t + 5]], position: t + 5 }),
          second.ok({ intervals: [[t, t + 5]], position: t + 5 }),
        ]);
      }
      expect(await totals(first.learner.id)).toEqual({ watched: 15, seat: 15 });
      const [clockRow, ...others] = await ctx.database.db.select().from(watchClocks);
      expect(others).toEqual([]);
      expect(clockRow).toMatchObject({ userId: first.learner.id, creditClockAt: clock.now() });
    });

    it("two servers writing the same learner's heartbeats at once spend each second once", async () => {
      const { ok, course, moduleId, cookie, learner } = await setup();
      const other = await anotherInstance(ctx, { clock: clock.now });
      try {
        await ok();
        for (const t of [0, 5, 10]) {
          clock.advance(5);
          const answers = await Promise.all([
            ok({ intervals: [[t, t + 5]], position: t + 5 }),
            other.inject({
              method: "POST",
              url: "/api/progress/heartbeat",
              headers: { cookie },
              payload: {
                courseId: course.id,
                moduleId,
                intervals: [[100 + t, 105 + t]],
                position: 105 + t,
                duration: DURATION,
              },
            }),
          ]);
          expect(answers[1].statusCode, answers[1].body).toBe(200);
        }
        expect(await totals(learner.id)).toEqual({ watched: 15, seat: 15 });
      } finally {
        await other.close();
      }
    });
  });

  describe("the completion rule", () => {
    it("refuses 'Mark as Complete' in a verified course until 90% is watched", async () => {
      const { complete, watch, ok } = await setup({ settings: { completionPolicy: "verified" } });
      const refused = await complete();
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({
        message: WATCH_MESSAGES.notWatchedEnough(90),
        code: "watching.not_watched_enough",
      });
      const partly = await watch(0, 240);
      expect(partly).toMatchObject({
        watchedPercent: 80,
        canComplete: false,
        remainingSeconds: 30,
      });
      expect((await complete()).statusCode).toBe(409);
      const enough = await watch(240, 270);
      expect(enough).toMatchObject({ watchedPercent: 90, canComplete: true, remainingSeconds: 0 });
      const done = await complete();
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json().completedModules).toHaveLength(1);
      // The next module starts from nothing.
      const next = await ok({ moduleId: done.json().course.modules[1].id });
      expect(next.canComplete).toBe(false);
    });

    it("also requires the minimum seat time when one is set", async () => {
      const { complete, watch, elapse, ok } = await setup({
        settings: { completionPolicy: "verified", minWatchPercent: 10, minSeatSeconds: 90 },
      });
      const watched = await watch(0, 60);
      expect(watched).toMatchObject({ watchedPercent: 20, seatSeconds: 60, canComplete: false });
      const refused = await complete();
      expect(refused.json()).toEqual({
        message: WATCH_MESSAGES.notSeatedEnough(90),
        code: "watching.not_seated_enough",
      });
      // Replaying what was already watched adds seat time, not watched time.
      await elapse(30);
      const replayed = await ok({ intervals: [[0, 30]] });
      expect(replayed).toMatchObject({ watchedSeconds: 60, seatSeconds: 90, canComplete: true });
      expect((await complete()).statusCode).toBe(200);
    });

    it("lets a manual course complete at once, as the spec says, and still records watching", async () => {
      const { complete, ok, elapse } = await setup();
      await ok();
      await elapse(5);
      expect((await ok({ intervals: [[0, 5]], position: 5 })).canComplete).toBe(true);
      expect((await complete()).statusCode).toBe(200);
    });
  });

  describe("resume and administrators' view", () => {
    it("answers the learner's own positions and the admin's per-module figures", async () => {
      const { course, learner, cookie, adminCookie, ok, elapse } = await setup();
      await ok();
      await elapse(20);
      await ok({ intervals: [[0, 20]], position: 20 });
      const mine = await call(ctx, "GET", `/api/progress/watch/${course.id}`, { cookie });
      expect(mine.statusCode).toBe(200);
      const body = mine.json() as CourseWatch;
      expect(body.completionPolicy).toBe("manual");
      expect(body.modules.map((m) => m.position)).toEqual([20, 0]);
      expect(body.modules[0]).toMatchObject({
        watchedSeconds: 20,
        seatSeconds: 20,
        watchedPercent: 6,
      });
      const admin = await call(ctx, "GET", `/api/admin/watch/${learner.id}/${course.id}`, {
        cookie: adminCookie,
      });
      expect(admin.json()).toEqual(body);
      expect(
        (await call(ctx, "GET", `/api/admin/watch/${learner.id}/${course.id}`, { cookie }))
          .statusCode,
      ).toBe(403);
      const stranger = await signInAs(ctx, await quickLearner(ctx));
      expect(
        (await call(ctx, "GET", `/api/progress/watch/${course.id}`, { cookie: stranger }))
          .statusCode,
      ).toBe(404);
    });

    it("exports watched share and seat time per learner and module in the CSV", async () => {
      const { adminCookie, course, learner, ok, elapse } = await setup();
      await ok();
      await elapse(30);
      await ok({ intervals: [[0, 30]], position: 30 });
      const csv = await call(ctx, "GET", "/api/admin/reports/export", { cookie: adminCookie });
      expect(csv.statusCode).toBe(200);
      const text = csv.body;
      expect(text).toContain("Watch Progress");
      const line = text.split("\r\n").find((l) => l.includes(learner.email));
      expect(line).toContain(course.title);
      expect(line).toContain(`${course.modules[0]!.title},10,30,30`);
    });
  });
});
