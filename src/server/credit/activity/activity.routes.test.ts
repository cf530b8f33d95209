import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  type ActivityInput,
  type Completion,
  CREDIT_MESSAGES,
  DEFAULT_ACTIVITY,
} from "../../../contract";
import { buildExamCourse } from "../../testing/assessments";
import {
  accme,
  creditOffer,
  creditType,
  dayOf,
  EVALUATION_ANSWERS,
  STATEMENT,
  useCreditClaim,
} from "../../testing/credit-claim";
import {
  call,
  completeViaApi,
  enrollViaApi,
  postEnrollment,
  postProgress,
  quickLearner,
  signInAs,
} from "../../testing/learning";
import { attestations } from "../attestations/attestations.table";
import { certificates } from "../certificates/certificates.table";
import { evaluationResponses, evaluationSubmissions } from "../evaluations/evaluations.table";
import { acknowledgements } from "./activity.table";

describe("the activity page", () => {
  const { ctx, video, clock, setup, certificatesOf } = useCreditClaim();

  it("keeps an administrator's activity, answers it to enrolled learners only, and refuses impossible dates", async () => {
    const { adminCookie, course, cookie, url } = await setup();
    const read = await call(ctx, "GET", url("activity"), { cookie });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      objectives: ["Recognise the signs", "Choose the treatment"],
      expirationDate: "2099-12-31",
      estimatedHours: course.duration,
      creditTypes: [{ name: "AMA PRA Category 1 Credit™", amount: 2, claimStep: 0.25 }],
      courseExpired: false,
      standing: { acknowledgedAt: null, enrollmentExpired: false },
    });

    const stranger = await signInAs(ctx, await quickLearner(ctx));
    expect((await call(ctx, "GET", url("activity"), { cookie: stranger })).statusCode).toBe(403);
    expect((await call(ctx, "GET", url("evaluation"), { cookie: stranger })).statusCode).toBe(403);
    expect((await call(ctx, "GET", url("activity"))).statusCode).toBe(401);
    const learnerWrite = await call(ctx, "PUT", url("activity"), { cookie, payload: accme() });
    expect(learnerWrite.statusCode).toBe(403);

    for (const bad of [
      accme({ expirationDate: "2026-02-30" }),
      accme({ releaseDate: "2027-01-01", expirationDate: "2026-12-31" }),
      // The claim step belongs to each credit type now, not to the activity.
      { ...accme(), partialCreditStep: 0.25 },
      accme({ attestationText: "" }),
      accme({ attestationText: "\u200B\u2060" }),
      { ...accme(), retentionYears: undefined },
      { ...accme(), unknown: true },
    ]) {
      const refused = await call(ctx, "PUT", url("activity"), {
        cookie: adminCookie,
        payload: bad,
      });
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
    }
    // Nothing changed.
    expect((await call(ctx, "GET", url("activity"), { cookie })).json().expirationDate).toBe(
      "2099-12-31",
    );
  });

  it("lets an administrator read a learner's steps, and no learner read another's", async () => {
    const { adminCookie, learner, url, cookie } = await setup();
    const asAdmin = await call(ctx, "GET", `${url("completion")}?userId=${learner.id}`, {
      cookie: adminCookie,
    });
    expect(asAdmin.statusCode).toBe(200);
    expect((asAdmin.json() as Completion).next).toBe("acknowledge");
    expect((await call(ctx, "GET", url("completion"), { cookie: adminCookie })).statusCode).toBe(
      400,
    );
    const other = await quickLearner(ctx);
    const peek = await call(ctx, "GET", `${url("completion")}?userId=${other.id}`, { cookie });
    expect(peek.statusCode).toBe(403);
  });

  it("closes an expired activity to everyone and an enrollment when its validity window runs out", async () => {
    const lastDay = dayOf(new Date(Date.now() + 6 * 86_400_000));
    const { adminCookie, course, learner, cookie, url } = await setup(
      accme({ expirationDate: lastDay, enrollmentValidDays: 3 }),
    );
    const activity = (await call(ctx, "GET", url("activity"), { cookie })).json();
    const enrolledAt = new Date(activity.standing.enrolledAt).getTime();
    expect(activity.standing.enrollmentExpiresAt).toBe(
      new Date(enrolledAt + 3 * 86_400_000).toISOString(),
    );
    await call(ctx, "POST", url("acknowledge"), { cookie });
    await completeViaApi(ctx, cookie, learner.id, course, 1);

    // Just past the window, which runs from the enrollment (a moment after the clock's start).
    clock.advanceDays(3.01);
    const late = await postProgress(ctx, cookie, {
      userId: learner.id,
      courseId: course.id,
      moduleId: course.modules[1]!.id,
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(CREDIT_MESSAGES.enrollmentExpired);
    expect(
      (await call(ctx, "GET", url("activity"), { cookie })).json().standing.enrollmentExpired,
    ).toBe(true);

    // Without the window, a learner may start until the last day; after it, nobody can.
    const reopened = await call(ctx, "PUT", url("activity"), {
      cookie: adminCookie,
      payload: accme({ expirationDate: lastDay }),
    });
    expect(reopened.statusCode).toBe(200);
    const other = await quickLearner(ctx);
    await enrollViaApi(ctx, adminCookie, other.id, course.id);
    const otherCookie = await signInAs(ctx, other);
    expect((await call(ctx, "POST", url("acknowledge"), { cookie: otherCookie })).statusCode).toBe(
      200,
    );
    clock.advanceDays(4);
    const expired = await call(ctx, "POST", url("acknowledge"), { cookie: otherCookie });
    expect(expired.statusCode).toBe(409);
    expect(expired.json().message).toBe(CREDIT_MESSAGES.courseExpired);
    expect(
      (await call(ctx, "GET", url("activity"), { cookie: adminCookie })).json().courseExpired,
    ).toBe(true);
    const third = await quickLearner(ctx);
    const refused = await postEnrollment(ctx, adminCookie, {
      userId: third.id,
      courseId: course.id,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(CREDIT_MESSAGES.courseExpired);
    expect(await certificatesOf(cookie)).toEqual([]);
  });

  it("opens the final exam only in order and while the enrollment is valid", async () => {
    clock.reset();
    const { adminCookie, course, cookie } = await buildExamCourse(ctx, video);
    const start = () => call(ctx, "POST", `/api/courses/${course.id}/exam/attempts`, { cookie });
    const activity = (extra: Partial<ActivityInput>) =>
      call(ctx, "PUT", `/api/courses/${course.id}/activity`, {
        cookie: adminCookie,
        payload: { ...DEFAULT_ACTIVITY, ...extra },
      });
    // Modules done before the course asked for an acknowledgement: the exam waits for it.
    expect((await activity({ acknowledgementRequired: true })).statusCode).toBe(200);
    const early = await start();
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(CREDIT_MESSAGES.outOfOrder("about this activity"));

    expect((await activity({ enrollmentValidDays: 1 })).statusCode).toBe(200);
    clock.advanceDays(1.01);
    const late = await start();
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(CREDIT_MESSAGES.enrollmentExpired);
    expect((await activity({})).statusCode).toBe(200);
    expect((await start()).statusCode).toBe(201);
  });

  it("keeps every credit record when the learner and the course are deleted, and refuses to delete them early", async () => {
    const { adminCookie, course, learner, cookie, url } = await setup(
      accme(),
      2,
      creditOffer([creditType({ claimStep: null })]),
    );
    await call(ctx, "POST", url("acknowledge"), { cookie });
    await completeViaApi(ctx, cookie, learner.id, course, 2);
    await call(ctx, "POST", url("evaluation"), {
      cookie,
      payload: { answers: EVALUATION_ANSWERS },
    });
    await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: null },
    });

    const deletedLearner = await call(ctx, "DELETE", `/api/users/learners/${learner.id}`, {
      cookie: adminCookie,
    });
    expect(deletedLearner.statusCode).toBe(200);
    const deletedCourse = await call(ctx, "DELETE", `/api/courses/${course.id}`, {
      cookie: adminCookie,
    });
    expect(deletedCourse.statusCode).toBe(200);

    const db = ctx.database.db;
    for (const table of [acknowledgements, evaluationSubmissions, attestations]) {
      const [row] = await db.select().from(table);
      expect(row).toMatchObject({
        userId: null,
        courseId: null,
        enrollmentId: null,
        learnerName: "Анна Иванова",
        learnerEmail: learner.email,
        courseTitle: course.title,
      });
      // Kept for the course's retention (6 years by default).
      const sixYears = new Date(clock.now());
      sixYears.setUTCFullYear(sixYears.getUTCFullYear() + 6);
      expect(row!.retainUntil.toISOString()).toBe(sixYears.toISOString());
    }
    expect(await db.select().from(evaluationResponses)).toHaveLength(1);
    const [attestation] = await db.select().from(attestations);
    expect(attestation!.statement).toBe(STATEMENT);
    expect(await db.select().from(certificates)).toHaveLength(1);

    // Neither rewritten nor deleted before the retention runs out.
    await expect(db.execute(sql`update attestations set credits_claimed = 5`)).rejects.toThrow();
    await expect(db.execute(sql`update acknowledgements set learner_name = 'X'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from evaluation_submissions`)).rejects.toThrow();
    await expect(db.execute(sql`delete from evaluation_responses`)).rejects.toThrow();
    await expect(db.execute(sql`update certificates set credit = null`)).rejects.toThrow();
  });

  it("leaves a course without an activity exactly as before: modules, then the certificate", async () => {
    const { course, learner, cookie, completion } = await setup(null, 1);
    const required = (await completion()).steps.filter((s) => s.required);
    expect(required.map((s) => s.key)).toEqual(["modules", "certificate"]);
    await completeViaApi(ctx, cookie, learner.id, course, 1);
    const [certificate] = await certificatesOf(cookie);
    expect(certificate!.credit).toBeNull();
    expect((await completion()).next).toBeNull();
  });
});
