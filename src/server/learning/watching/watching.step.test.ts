import { beforeAll, describe, expect, it } from "vitest";
import { WATCH_MESSAGES } from "../../../contract";
import { useStepHarness } from "../../testing/step-harness";
import { createWatchingService, type WatchingService, watchingStep } from "./watching.service";

/** The harness's modules last one minute: the player reports the real length, 60 s. */
const DURATION = 60;

describe("verified watching as the only step of completion", () => {
  const h = useStepHarness([watchingStep]);
  // Watch credit is paced by the wall clock: this one moves by hand.
  let at = Date.parse("2030-01-01T00:00:00Z");
  let watching: WatchingService;
  beforeAll(() => {
    watching = createWatchingService({
      db: h.db,
      courses: h.courses,
      enrollments: h.enrollments,
      users: h.users,
      now: () => new Date(at),
    });
  });

  async function setup(completionPolicy: "manual" | "verified") {
    const course = await h.course({ completionPolicy, minWatchPercent: 90 });
    const learner = await h.enrolledLearner(course);
    const moduleId = course.modules[0]!.id;
    /** Plays [from, to) of the video, after as many seconds of wall-clock time. */
    const play = (from: number, to: number) => {
      at += (to - from) * 1000;
      const body = { courseId: course.id, moduleId, intervals: [[from, to]] as [number, number][] };
      return watching.heartbeat({
        userId: learner.id,
        body: { ...body, position: to, duration: DURATION },
      });
    };
    const complete = () =>
      h.enrollments.completeModule({ userId: learner.id, courseId: course.id, moduleId });
    return { course, learner, play, complete };
  }

  it("refuses completing a module of a verified course until it was watched", async () => {
    const { course, learner, play, complete } = await setup("verified");
    const notWatched = { statusCode: 409, message: WATCH_MESSAGES.notWatchedEnough(90) };
    await expect(complete()).rejects.toMatchObject(notWatched);

    await play(0, 0);
    expect(await play(0, 30)).toMatchObject({ watchedPercent: 50, canComplete: false });
    await expect(complete()).rejects.toMatchObject(notWatched);
    expect((await h.outcome(learner.id, course.id)).isCompleted).toBe(false);

    expect(await play(30, DURATION)).toMatchObject({ watchedPercent: 100, canComplete: true });
    await complete();
    await h.expectCompleted(learner.id, course.id);
  });

  it("lets a module of a manual course be completed unwatched", async () => {
    const { course, learner, complete } = await setup("manual");
    await complete();
    await h.expectCompleted(learner.id, course.id);
  });
});
