import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type Enrollment, PUBLISH_CONFIRMATIONS, type Question } from "../../../contract";
import { courseAttestations } from "../../credit/attestations/attestations.table";
import { certificates } from "../../credit/certificates/certificates.table";
import { auditEvents } from "../../platform/audit/audit.table";
import { addQuestion, answersFor, questionBody, saveExamSettings } from "../../testing/assessments";
import { addModule, validModule } from "../../testing/courses";
import {
  accme,
  creditOffer,
  creditType,
  EVALUATION_ANSWERS,
  STATEMENT,
  useCreditClaim,
} from "../../testing/credit-claim";
import {
  call,
  completeViaApi,
  enrollViaApi,
  nextModuleNumber,
  postProgress,
} from "../../testing/learning";
import { anotherInstance } from "../../testing/test-app";
import { completionRecomputes } from "./enrollments.table";

/**
 * Every course edit that changes what completes a course goes through the one gate
 * (ARCHITECTURE section 6): on a course with an activity page, an exam, an evaluation and an
 * attestation, no edit earns a learner a step they have not done, no read issues a
 * certificate, and a learner left with every required step done completes once, with the
 * credit facts of the steps they did.
 */
describe("course edits and completion", () => {
  const { ctx, video, clock, setup, certificatesOf } = useCreditClaim();

  /** A two-module accredited course with a required exam of two questions drawn from four. */
  async function examCourse(activity = accme()) {
    const base = await setup(activity);
    const bank: Question[] = [];
    for (let n = 1; n <= 4; n++) {
      bank.push(await addQuestion(ctx, base.adminCookie, base.course.id, questionBody(n)));
    }
    await saveExamSettings(ctx, base.adminCookie, base.course.id, {
      enabled: true,
      questionCount: 2,
    });
    const { cookie, url, learner, course } = base;
    const steps = {
      acknowledge: () => call(ctx, "POST", url("acknowledge"), { cookie }),
      modules: (count: number) => completeViaApi(ctx, cookie, learner.id, course, count),
      async exam() {
        const started = await call(ctx, "POST", `/api/courses/${course.id}/exam/attempts`, {
          cookie,
        });
        expect(started.statusCode, started.body).toBe(201);
        const attempt = started.json() as { id: string; questions: never[] };
        const submitted = await call(ctx, "POST", `/api/exam-attempts/${attempt.id}/submit`, {
          cookie,
          payload: { answers: answersFor(attempt.questions, bank) },
        });
        expect(submitted.statusCode, submitted.body).toBe(200);
      },
      async evaluate() {
        const evaluated = await call(ctx, "POST", url("evaluation"), {
          cookie,
          payload: { answers: EVALUATION_ANSWERS },
        });
        expect(evaluated.statusCode, evaluated.body).toBe(201);
      },
      async attest() {
        const attested = await call(ctx, "POST", url("attest"), {
          cookie,
          payload: { statement: STATEMENT, creditsClaimed: 1.75 },
        });
        expect(attested.statusCode, attested.body).toBe(200);
      },
    };
    const admin = (method: "DELETE" | "PATCH" | "PUT", path: string, payload?: object) =>
      call(ctx, method, `/api/courses/${course.id}${path}`, { cookie: base.adminCookie, payload });
    return { ...base, bank, steps, admin };
  }
  type ExamCourse = Awaited<ReturnType<typeof examCourse>>;

  /**
   * What an edit's transaction records of itself, written straight to the database as by an
   * instance that stopped before announcing or recomputing anything: one more change of the
   * course's rules, its learners not yet recomputed.
   */
  async function changeRulesUnannounced(courseId: string) {
    await ctx.database.db
      .insert(completionRecomputes)
      .values({ courseId })
      .onConflictDoUpdate({
        target: completionRecomputes.courseId,
        set: { requests: sql`${completionRecomputes.requests} + 1` },
      });
  }

  async function enrollmentOf(c: ExamCourse): Promise<Enrollment> {
    const list = await call(ctx, "GET", `/api/enrollments/user/${c.learner.id}`, {
      cookie: c.adminCookie,
    });
    return (list.json() as Enrollment[]).find((e) => e.courseId === c.course.id)!;
  }

  /** What an edit must never do: complete the learner, or issue a certificate on any read. */
  async function expectNothingEarned(c: ExamCourse, next: string) {
    expect(await enrollmentOf(c)).toMatchObject({ isCompleted: false, completedAt: null });
    const standing = await c.completion();
    expect(standing).toMatchObject({ isCompleted: false, next });
    expect(standing.steps.find((s) => s.key === "certificate")?.done).toBe(false);
    expect(await certificatesOf(c.cookie)).toEqual([]);
    const transcript = await call(ctx, "GET", `/api/learners/${c.learner.id}/transcript`, {
      cookie: c.cookie,
    });
    expect(transcript.statusCode).toBe(200);
    expect(
      await ctx.database.db
        .select()
        .from(certificates)
        .where(eq(certificates.userId, c.learner.id)),
    ).toEqual([]);
  }

  /** Completed once: one course.completed event, one certificate with the steps' facts. */
  async function expectCompletedOnce(c: ExamCourse, attested: boolean) {
    expect(await enrollmentOf(c)).toMatchObject({ isCompleted: true, progress: 100 });
    const completed = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.type, "course.completed"), eq(auditEvents.learnerId, c.learner.id)),
      );
    expect(completed).toHaveLength(1);
    const issued = await certificatesOf(c.cookie);
    expect(issued).toHaveLength(1);
    const [certificate] = issued;
    expect(certificate!.examScore).toBe(100);
    expect(certificate!.credits.map((x) => x.name)).toEqual(["AMA PRA Category 1 Credit™"]);
    expect(certificate!.credits[0]!.amount).toBe(attested ? 1.75 : 2);
    expect(certificate!.credit?.attestedAt ?? null).toEqual(attested ? expect.any(String) : null);
    return certificate!;
  }

  it("a module removed: the learner who had not finished it goes on to the exam, nothing earned", async () => {
    const c = await examCourse();
    await c.steps.acknowledge();
    await c.steps.modules(1);
    const removed = await c.admin("DELETE", `/modules/${c.course.modules[1]!.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await enrollmentOf(c)).toMatchObject({ progress: 100 });
    await expectNothingEarned(c, "exam");
    const steps = (await c.completion()).steps;
    expect(steps.find((s) => s.key === "exam")?.done).toBe(false);
    expect(steps.find((s) => s.key === "attestation")?.done).toBe(false);

    await c.steps.exam();
    await c.steps.evaluate();
    await expectNothingEarned(c, "attestation");
    await c.steps.attest();
    await expectCompletedOnce(c, true);
  });

  it("a module added after every other step: the learner completes it, then the course once", async () => {
    const c = await examCourse();
    await c.steps.acknowledge();
    await c.steps.modules(2);
    await c.steps.exam();
    await c.steps.evaluate();
    const added = await addModule(
      ctx,
      c.adminCookie,
      c.course.id,
      validModule(await video(c.adminCookie), nextModuleNumber()),
    );
    expect(await enrollmentOf(c)).toMatchObject({ progress: 67 });
    await expectNothingEarned(c, "modules");
    const attestEarly = await call(ctx, "POST", c.url("attest"), {
      cookie: c.cookie,
      payload: { statement: STATEMENT, creditsClaimed: 1.75 },
    });
    expect(attestEarly.statusCode).toBe(409);
    const last = await postProgress(ctx, c.cookie, {
      userId: c.learner.id,
      courseId: c.course.id,
      moduleId: added.id,
    });
    expect(last.json()).toMatchObject({ progress: 100, isCompleted: false });
    await c.steps.attest();
    await expectCompletedOnce(c, true);
  });

  it("modules reordered and their completion rule changed: nothing earned", async () => {
    const c = await examCourse();
    await c.steps.acknowledge();
    await c.steps.modules(1);
    const order = [...c.course.modules].reverse().map((m) => m.id);
    expect((await c.admin("PUT", "/modules/order", { moduleIds: order })).statusCode).toBe(200);
    const rule = await c.admin("PATCH", "/settings", { minWatchPercent: 50 });
    expect(rule.statusCode, rule.body).toBe(200);
    expect(await enrollmentOf(c)).toMatchObject({ progress: 50 });
    await expectNothingEarned(c, "modules");
  });

  it("the exam turned off and its pool changed: the learner goes on to the evaluation, nothing earned", async () => {
    const c = await examCourse();
    await c.steps.acknowledge();
    await c.steps.modules(2);
    await addQuestion(ctx, c.adminCookie, c.course.id, questionBody(5));
    await expectNothingEarned(c, "exam");
    await saveExamSettings(ctx, c.adminCookie, c.course.id, { enabled: false, questionCount: 2 });
    await expectNothingEarned(c, "evaluation");
    await c.steps.evaluate();
    await c.steps.attest();
    const completed = await c.completion();
    expect(completed.isCompleted).toBe(true);
    const [certificate] = await certificatesOf(c.cookie);
    expect(certificate!.examScore).toBeNull();
  });

  it("the attestation turned off with every other step done: completes through the gate, once", async () => {
    const c = await examCourse();
    await c.steps.acknowledge();
    await c.steps.modules(2);
    await c.steps.exam();
    await c.steps.evaluate();
    const offer = await c.admin(
      "PUT",
      "/credit",
      creditOffer([creditType({ amount: 2, claimStep: 0.5 })]),
    );
    expect(offer.statusCode, offer.body).toBe(200);
    await expectNothingEarned(c, "attestation");
    const saved = await c.admin("PUT", "/activity", accme({ attestationRequired: false }));
    expect(saved.statusCode, saved.body).toBe(200);
    await expectCompletedOnce(c, false);
    // Later edits leave the credit as earned.
    await c.admin("PUT", "/activity", accme());
    await c.admin("DELETE", `/modules/${c.course.modules[1]!.id}`);
    await expectCompletedOnce(c, false);
  });

  it("an edit while the course is offline earns nothing until it is published again", async () => {
    const c = await examCourse();
    await c.steps.acknowledge();
    await c.steps.modules(2);
    await c.steps.exam();
    await c.steps.evaluate();
    expect((await c.admin("PATCH", "/unpublish")).statusCode).toBe(200);
    expect(
      (await c.admin("PUT", "/activity", accme({ attestationRequired: false }))).statusCode,
    ).toBe(200);
    expect(await enrollmentOf(c)).toMatchObject({ isCompleted: false });
    expect(await certificatesOf(c.cookie)).toEqual([]);
    const published = await c.admin(
      "PATCH",
      `/publish?confirm=${PUBLISH_CONFIRMATIONS.manualCompletion}&creditLengthReason=Reading`,
    );
    expect(published.statusCode, published.body).toBe(200);
    await expectCompletedOnce(c, false);
  });

  it("an edit after the activity expired earns nothing until the expiry is extended", async () => {
    const c = await examCourse();
    await c.steps.acknowledge();
    await c.steps.modules(2);
    await c.steps.exam();
    await c.steps.evaluate();
    clock.advanceDays(365 * 80);
    const expired = accme({ attestationRequired: false, expirationDate: "2099-12-31" });
    expect((await c.admin("PUT", "/activity", expired)).statusCode).toBe(200);
    expect(await enrollmentOf(c)).toMatchObject({ isCompleted: false });
    expect(await certificatesOf(c.cookie)).toEqual([]);
    const extended = await c.admin("PUT", "/activity", {
      ...expired,
      expirationDate: "2199-12-31",
    });
    expect(extended.statusCode, extended.body).toBe(200);
    await expectCompletedOnce(c, false);
  });

  it("an enrollment removed and made again starts afresh: nothing carried over is earned", async () => {
    const c = await examCourse();
    await c.steps.acknowledge();
    await c.steps.modules(2);
    await c.steps.exam();
    await c.steps.evaluate();
    const old = await enrollmentOf(c);
    const removed = await call(ctx, "DELETE", `/api/enrollments/${old.id}`, {
      cookie: c.adminCookie,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    await enrollViaApi(ctx, c.adminCookie, c.learner.id, c.course.id);
    expect(
      (await c.admin("PUT", "/activity", accme({ attestationRequired: false }))).statusCode,
    ).toBe(200);
    expect(await enrollmentOf(c)).toMatchObject({ progress: 0, isCompleted: false });
    await expectNothingEarned(c, "acknowledge");
  });

  it("a recompute cut short by a stop is finished when the portal starts again", async () => {
    const c = await examCourse();
    await c.steps.acknowledge();
    await c.steps.modules(2);
    await c.steps.exam();
    await c.steps.evaluate();
    // As if the edit committed and the portal stopped before recomputing its learners.
    const { db } = ctx.database;
    await db
      .update(courseAttestations)
      .set({ attestationRequired: false })
      .where(eq(courseAttestations.courseId, c.course.id));
    await changeRulesUnannounced(c.course.id);
    expect(await enrollmentOf(c)).toMatchObject({ isCompleted: false });

    // Started again: the recompute asked for is finished before the portal is ready.
    await (await anotherInstance(ctx, { clock: clock.now })).close();
    const [recompute] = await db
      .select()
      .from(completionRecomputes)
      .where(eq(completionRecomputes.courseId, c.course.id));
    expect(recompute!.recomputed).toBe(recompute!.requests);
    await expectCompletedOnce(c, false);
  });

  it("a step never settles on rules an edit changed after the step read them", async () => {
    const c = await examCourse(accme({ attestationRequired: false }));
    await c.steps.acknowledge();
    await c.steps.modules(2);
    await c.steps.exam();
    // The learner's page read the course's rules: the evaluation is their last step.
    expect((await c.completion()).next).toBe("evaluation");
    // Another instance's edit makes the attestation required; this instance has not heard
    // of it yet (nothing announced), so its cached rules are the old ones.
    const { db } = ctx.database;
    await db
      .update(courseAttestations)
      .set({ attestationRequired: true, attestationText: STATEMENT })
      .where(eq(courseAttestations.courseId, c.course.id));
    await changeRulesUnannounced(c.course.id);

    await c.steps.evaluate();
    expect(await enrollmentOf(c)).toMatchObject({ isCompleted: false, completedAt: null });
    expect(await certificatesOf(c.cookie)).toEqual([]);
    await c.steps.attest();
    await expectCompletedOnce(c, true);
  });
});
