import { type SQL, sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import {
  buildPublishedCourse,
  call,
  postEnrollment,
  progressRows,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";

/**
 * An administrator enrolls a learner while another deletes that learner or the course. The
 * enrollment read both as they were, and its insert then waits on the deletion: once the
 * deletion commits, the answer is the one the enrollment would have had a moment later
 * (no such learner, no such course), never a server error, and nothing is enrolled.
 * Needs real concurrency: run with TEST_DATABASE_URL (PGlite has one connection).
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  "an enrollment while its learner or course is deleted",
  () => {
    const ctx = useTestApp();
    const videoPath = useSharedVideo(ctx);

    async function setup() {
      const admin = await quickAdmin(ctx);
      const adminCookie = await signInAs(ctx, admin);
      const video = await videoPath(adminCookie);
      const course = await buildPublishedCourse(ctx, adminCookie, { video });
      const learner = await quickLearner(ctx, { password: null });
      return { adminCookie, course, learner };
    }

    /** Waits until a session of this database waits for a row lock. */
    async function someoneWaits() {
      for (;;) {
        const waiting = (await ctx.database.db.execute(
          sql`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`,
        )) as unknown as { rows: { n: number }[] };
        if (waiting.rows[0]!.n > 0) return;
        await new Promise((r) => setTimeout(r, 10));
      }
    }

    /**
     * Runs `deletion` in a transaction held open until `request` waits on it, then commits
     * it; answers the request's response.
     */
    async function during(deletion: SQL, request: () => Promise<LightMyRequestResponse>) {
      let commit: () => void = () => {};
      const held = new Promise<void>((r) => {
        commit = r;
      });
      let deleted: () => void = () => {};
      const done = new Promise<void>((r) => {
        deleted = r;
      });
      const transaction = ctx.database.db.transaction(async (tx) => {
        await tx.execute(deletion);
        deleted();
        await held;
      });
      await done;
      const response = request();
      await someoneWaits();
      commit();
      await transaction;
      return response;
    }

    it("the learner deleted meanwhile: 400, not a learner, and nothing enrolled", async () => {
      const { adminCookie, course, learner } = await setup();
      const response = await during(sql`delete from users where id = ${learner.id}`, () =>
        postEnrollment(ctx, adminCookie, { userId: learner.id, courseId: course.id }),
      );
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: "enrollments.not_a_learner" });
      expect((await progressRows(ctx)).enrollments).toEqual([]);
    });

    it("the course deleted meanwhile: 404, course not found, and nothing enrolled", async () => {
      const { adminCookie, course, learner } = await setup();
      const response = await during(sql`delete from courses where id = ${course.id}`, () =>
        postEnrollment(ctx, adminCookie, { userId: learner.id, courseId: course.id }),
      );
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toMatchObject({ code: "courses.not_found" });
      expect((await progressRows(ctx)).enrollments).toEqual([]);
    });

    it("a learner of a bulk enrollment deleted meanwhile: 400, and nobody enrolled", async () => {
      const { adminCookie, course, learner } = await setup();
      const other = await quickLearner(ctx, { password: null });
      const response = await during(sql`delete from users where id = ${learner.id}`, () =>
        call(ctx, "POST", "/api/enrollments/bulk", {
          cookie: adminCookie,
          payload: { courseId: course.id, userIds: [other.id, learner.id] },
        }),
      );
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: "enrollments.not_learners" });
      expect((await progressRows(ctx)).enrollments).toEqual([]);
    });
  },
);
