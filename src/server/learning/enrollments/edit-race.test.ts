import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { evaluationStep } from "../../credit/evaluations/evaluations.service";
import { HARNESS_ADMIN, useStepHarness } from "../../testing/step-harness";
import { defineStep } from "./completion-steps";

/**
 * A learner's 'Mark as Complete' whose transaction already checked the course's rules version
 * when an administrator edits those rules. docs/course-editing.md: "nobody completes on rules
 * an edit has changed." The step holds its version until it commits, so the edit waits for
 * it and recomputes on what it wrote: the two happen one after the other, never interleaved
 * (an edit that committed and recomputed first would leave the learner completing on the old
 * rules, past a step the course now asks for, or short of a course the edit finished).
 *
 * A step of the test alone holds the learner's transaction open after its version check,
 * until the edit is seen waiting for it: the window a busy portal has between the check and
 * the commit of every batch. Needs real concurrency: run with TEST_DATABASE_URL (PGlite has
 * one connection).
 */
let hold: Promise<void> | null = null;
let reached: () => void = () => {};
const gateStep = defineStep<null>({
  key: "modules",
  load: async () => null,
  async checkModule() {
    if (!hold) return;
    const waiting = hold;
    hold = null;
    reached();
    await waiting;
  },
});

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  "a course edit while a learner's completion is in flight",
  () => {
    const h = useStepHarness([gateStep, evaluationStep]);

    /** Starts the learner's completion of `moduleId` and answers once it is held mid-transaction. */
    async function heldCompletion(userId: string, courseId: string, moduleId: string) {
      let release: () => void = () => {};
      hold = new Promise<void>((r) => {
        release = r;
      });
      const atGate = new Promise<void>((r) => {
        reached = r;
      });
      const done = h.enrollments.completeModule({ userId, courseId, moduleId });
      await atGate;
      return { release, done };
    }

    /**
     * Waits until a session of this database waits for a row lock (the edit, on the step),
     * or the edit is done without waiting.
     */
    async function editWaiting(edited: { done: boolean }) {
      while (!edited.done) {
        const waiting = (await h.db.execute(
          sql`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`,
        )) as unknown as { rows: { n: number }[] };
        if (waiting.rows[0]!.n > 0) return;
        await new Promise((r) => setTimeout(r, 10));
      }
    }

    /** Runs `edit` while the learner's completion of `moduleId` is held; answers the order. */
    async function editDuring(
      learnerId: string,
      courseId: string,
      moduleId: string,
      edit: () => Promise<unknown>,
    ) {
      const order: string[] = [];
      const { release, done } = await heldCompletion(learnerId, courseId, moduleId);
      const state = { done: false };
      const edited = edit().then(() => {
        state.done = true;
        order.push("edit");
      });
      await editWaiting(state);
      release();
      await done.then(() => order.push("completion"));
      await edited;
      return order;
    }

    it("an evaluation made required meanwhile waits for the completion in flight", async () => {
      const course = await h.course({ modules: 1 });
      await h.saveActivity(course.id, { evaluationRequired: false });
      const learner = await h.enrolledLearner(course);
      const order = await editDuring(learner.id, course.id, course.modules[0]!.id, () =>
        h.saveActivity(course.id, { evaluationRequired: true }),
      );
      // The learner finished on the rules of the moment; the edit came after.
      expect(order).toEqual(["completion", "edit"]);
      expect((await h.outcome(learner.id, course.id)).isCompleted).toBe(true);
    });

    it("the last unfinished module removed meanwhile: the recompute sees the completion", async () => {
      const course = await h.course({ modules: 2 });
      const learner = await h.enrolledLearner(course);
      const [m1, m2] = course.modules;
      const order = await editDuring(learner.id, course.id, m1!.id, () =>
        h.courses.removeModule(course.id, m2!.id, HARNESS_ADMIN),
      );
      expect(order).toEqual(["completion", "edit"]);
      // Every module of the course is now done, and nothing else is asked.
      const row = await h.enrollments.findRow(learner.id, course.id);
      expect({ progress: row?.progress, isCompleted: row?.isCompleted }).toEqual({
        progress: 100,
        isCompleted: true,
      });
    });
  },
);
