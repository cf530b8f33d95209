import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Course } from "../../../contract";
import {
  buildPublishedCourse,
  enrollViaApi,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { useWatchingTestApp } from "../../testing/watching";
import { applyBeat } from "./beat";
import { createWatchingRepository } from "./watching.repository";

/**
 * The statements that write learners' heartbeats, a batch's together or a beat's alone. A
 * batch whose statements fail is still answered, beat by beat, so the routes' answers cannot
 * show that a batch of several works: these statements are run here on their own.
 */
describe("heartbeat batch statements", { timeout: 120_000 }, () => {
  const { ctx, clock } = useWatchingTestApp();
  const videoPath = useSharedVideo(ctx);

  async function learnersOfOneCourse(count: number) {
    const adminCookie = await signInAs(ctx, await quickAdmin(ctx));
    const course: Course = await buildPublishedCourse(ctx, adminCookie, {
      video: await videoPath(adminCookie),
      modules: 1,
    });
    const keys: { userId: string; courseId: string }[] = [];
    for (let i = 0; i < count; i++) {
      const learner = await quickLearner(ctx);
      await enrollViaApi(ctx, adminCookie, learner.id, course.id);
      keys.push({ userId: learner.id, courseId: course.id });
    }
    return { course, module: course.modules[0]!, keys };
  }

  it("lock every clock, read every record and write every beat of a batch in one statement each", async () => {
    const { course, module, keys } = await learnersOfOneCourse(3);
    const watchKeys = keys.map((k) => ({ ...k, moduleId: module.id }));
    const body = { courseId: course.id, moduleId: module.id, position: 0, intervals: [] };

    const beatAt = clock.now();
    const saved = await ctx.database.db.transaction(async (tx) => {
      const repo = createWatchingRepository(tx);
      const clocks = await repo.lockClocks(
        keys.map((k) => k.userId),
        beatAt,
      );
      expect(clocks.size).toBe(3);
      expect(await repo.findWatches(watchKeys)).toEqual(new Map());
      return repo.saveBeats(
        keys.map((k) =>
          applyBeat(
            { userId: k.userId, course, module, body: { ...body, duration: 300 } },
            clocks.get(k.userId)!,
            undefined,
            beatAt,
          ),
        ),
      );
    });
    // Answered in the order of the writes, one record per learner.
    expect(saved.map((r) => r.userId)).toEqual(keys.map((k) => k.userId));

    clock.advance(10);
    const later = clock.now();
    await ctx.database.db.transaction(async (tx) => {
      const repo = createWatchingRepository(tx);
      const clocks = await repo.lockClocks(
        keys.map((k) => k.userId),
        later,
      );
      // Existing clocks are locked as they are, not reset to this batch's time.
      for (const c of clocks.values()) expect(c.lastBeatAt).toEqual(beatAt);
      const stored = await repo.findWatches(watchKeys);
      expect([...stored.values()].map((r) => r.heartbeats)).toEqual([1, 1, 1]);
      const rows = await repo.saveBeats(
        keys.map((k) =>
          applyBeat(
            {
              userId: k.userId,
              course,
              module,
              body: { ...body, duration: 300, intervals: [[0, 10]], position: 10 },
            },
            clocks.get(k.userId)!,
            stored.get(`${k.userId}\u0000${k.courseId}\u0000${module.id}`),
            later,
          ),
        ),
      );
      expect(rows.map((r) => [r.heartbeats, r.watchedSeconds])).toEqual([
        [2, 10],
        [2, 10],
        [2, 10],
      ]);
    });
    const clocks = await createWatchingRepository(ctx.database.db).lockClocks(
      keys.map((k) => k.userId),
      later,
    );
    for (const c of clocks.values()) expect(c.lastBeatAt).toEqual(later);
  });

  it("commit without waiting for the disk, in the heartbeats' transaction only", async () => {
    const { keys } = await learnersOfOneCourse(1);
    const setting = async (db: typeof ctx.database.db) => {
      const result = await db.execute(sql`select current_setting('synchronous_commit') as value`);
      return (result as unknown as { rows: { value: string }[] }).rows[0]!.value;
    };
    const inside = await ctx.database.db.transaction(async (tx) => {
      const before = await setting(tx);
      await createWatchingRepository(tx).lockClocks([keys[0]!.userId], clock.now());
      return [before, await setting(tx)];
    });
    expect(inside).toEqual(["on", "off"]);
    expect(await setting(ctx.database.db)).toBe("on");
  });

  it("a beat stamped before the learner's latest one, that took the lock after it, earns nothing and moves nothing back", async () => {
    const { course, module, keys } = await learnersOfOneCourse(1);
    const userId = keys[0]!.userId;
    const body = { courseId: course.id, moduleId: module.id, position: 0, duration: 300 };
    const start = clock.now();
    const repo = createWatchingRepository(ctx.database.db);
    const lock = async (at: Date) => (await repo.lockClocks([userId], at)).get(userId)!;
    const first = applyBeat(
      { userId, course, module, body: { ...body, intervals: [] } },
      await lock(start),
      undefined,
      start,
    );
    const [saved] = await repo.saveBeats([first]);
    clock.advance(10);
    const late = clock.now();
    const lateWrite = applyBeat(
      { userId, course, module, body: { ...body, intervals: [[0, 10]], position: 10 } },
      await lock(late),
      saved,
      late,
    );
    await repo.saveBeats([lateWrite]);
    // Stamped 5 s earlier, this one waited for the lock: the 10 s are spent already.
    const early = new Date(late.getTime() - 5000);
    const earlyWrite = applyBeat(
      { userId, course, module, body: { ...body, intervals: [[100, 105]], position: 105 } },
      await lock(late),
      await repo.findWatch({ ...keys[0]!, moduleId: module.id }),
      early,
    );
    expect(earlyWrite.watch).toMatchObject({ watchedSeconds: 10, seatSeconds: 10 });
    expect(earlyWrite.clock).toEqual({ creditClockAt: late, lastBeatAt: late });
  });
});
