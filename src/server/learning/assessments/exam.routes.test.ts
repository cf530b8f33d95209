import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  ASSESSMENT_MESSAGES,
  type Attempt,
  type Completion,
  type EnrollmentWithRelations,
  type ExamStatus,
  type SubmitResult,
} from "../../../contract";
import { certificates } from "../../credit/certificates/certificates.table";
import { auditEvents } from "../../platform/audit/audit.table";
import { addQuestion, answersFor, buildExamCourse, questionBody } from "../../testing/assessments";
import { call, quickLearner, signInAs, useSharedVideo } from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";
import { examAttempts } from "./assessments.table";

let clock = new Date("2026-11-24T09:00:00.000Z");
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, into);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      keysOf(v, into);
    }
  }
  return into;
}

describe("final exam", () => {
  const ctx = useTestApp({}, { clock: () => clock });
  const video = useSharedVideo(ctx);

  const start = (cookie: string, courseId: string) =>
    call(ctx, "POST", `/api/courses/${courseId}/exam/attempts`, { cookie });
  const submit = (cookie: string, attemptId: string, answers: unknown[]) =>
    call(ctx, "POST", `/api/exam-attempts/${attemptId}/submit`, { cookie, payload: { answers } });
  const status = async (cookie: string, courseId: string) =>
    (await call(ctx, "GET", `/api/courses/${courseId}/exam`, { cookie })).json() as ExamStatus;

  it("draws a new version per attempt, shuffling questions and options, and resumes the open one", async () => {
    const { course, cookie, questions } = await buildExamCourse(ctx, video, {
      pool: 12,
      settings: { questionCount: 5, maxAttempts: null },
    });
    const first = await start(cookie, course.id);
    expect(first.statusCode).toBe(201);
    const attempt = first.json() as Attempt;
    expect(attempt.questions).toHaveLength(5);
    expect(new Set(attempt.questions.map((q) => q.id)).size).toBe(5);
    // A reload resumes the same attempt, with the same version.
    const again = await start(cookie, course.id);
    expect(again.statusCode).toBe(200);
    expect((again.json() as Attempt).id).toBe(attempt.id);
    expect((again.json() as Attempt).questions).toEqual(attempt.questions);

    // Drawn afresh each attempt: over a few failed attempts, the versions differ.
    const versions = [attempt.questions.map((q) => `${q.id}:${q.options.map((o) => o.id)}`)];
    let current = attempt;
    for (let i = 0; i < 3; i++) {
      const failed = await submit(
        cookie,
        current.id,
        answersFor(current.questions, questions, () => false),
      );
      expect((failed.json() as SubmitResult).passed).toBe(false);
      current = (await start(cookie, course.id)).json() as Attempt;
      versions.push(current.questions.map((q) => `${q.id}:${q.options.map((o) => o.id)}`));
    }
    expect(new Set(versions.map((v) => v.join("|"))).size).toBeGreaterThan(1);
    // Options come shuffled: across the drawn questions, some order differs from the bank's.
    const bankOrder = new Map(questions.map((q) => [q.id, q.options.map((o) => o.id).join()]));
    const allAttempts = await ctx.database.db.select().from(examAttempts);
    const reordered = allAttempts
      .flatMap((a) => a.questions)
      .some((q) => q.options.map((o) => o.id).join() !== bankOrder.get(q.id));
    expect(reordered).toBe(true);
  });

  it("grades single, multiple and true/false on the server: a multiple scores only with exactly its set", async () => {
    const { course, cookie, questions } = await buildExamCourse(ctx, video, {
      pool: 3,
      kinds: ["single", "multiple", "true_false"],
      settings: { questionCount: 3, passMark: 100, revealAnswers: "always" },
    });
    const attempt = (await start(cookie, course.id)).json() as Attempt;
    const byKind = (kind: string) => attempt.questions.find((q) => q.kind === kind)!;
    const truth = (id: string) => questions.find((q) => q.id === id)!;
    const multiple = byKind("multiple");
    const multipleCorrect = truth(multiple.id)
      .options.filter((o) => o.correct)
      .map((o) => o.id);
    const answers = [
      answersFor([byKind("single")], questions)[0],
      answersFor([byKind("true_false")], questions)[0],
      // Only one of the two correct options: no partial credit.
      { questionId: multiple.id, optionIds: [multipleCorrect[0]] },
    ];
    const result = (await submit(cookie, attempt.id, answers)).json() as SubmitResult;
    // 2 of 3 is 66.67%, rounded half up to 67.
    expect(result).toMatchObject({ score: 67, passed: false, passMark: 100, attemptsLeft: null });
    expect(result.review).toHaveLength(3);
    expect(result.review!.find((r) => r.questionId === multiple.id)!.correct).toBe(false);

    const second = (await start(cookie, course.id)).json() as Attempt;
    const full = (await submit(cookie, second.id, answersFor(second.questions, questions))).json();
    expect(full).toMatchObject({ score: 100, passed: true });
  });

  it("never sends correct, feedback or explanation before submitting", async () => {
    const { course, cookie, questions, enrollment } = await buildExamCourse(ctx, video, {
      pool: 4,
      kinds: ["single", "multiple", "true_false"],
    });
    const started = await start(cookie, course.id);
    const attempt = started.json() as Attempt;
    const saved = await call(ctx, "PUT", `/api/exam-attempts/${attempt.id}/answers`, {
      cookie,
      payload: { answers: answersFor(attempt.questions.slice(0, 1), questions) },
    });
    expect(saved.statusCode).toBe(200);
    const reads = [
      started,
      await start(cookie, course.id),
      await call(ctx, "GET", `/api/courses/${course.id}/exam`, { cookie }),
      await call(ctx, "GET", `/api/courses/${course.id}/completion`, { cookie }),
      await call(ctx, "GET", `/api/enrollments/user/${enrollment.userId}`, { cookie }),
      saved,
    ];
    for (const response of reads) {
      const keys = keysOf(response.json());
      for (const secret of ["correct", "feedback", "explanation"])
        expect(keys.has(secret)).toBe(false);
    }
    // Nor is the answer hidden in text: no feedback string appears anywhere.
    for (const response of reads) {
      for (const q of questions) {
        for (const o of q.options) if (o.feedback) expect(response.body).not.toContain(o.feedback);
        if (q.explanation) expect(response.body).not.toContain(q.explanation);
      }
    }
    // The admin's bank needs a session of an admin.
    const denied = await call(ctx, "GET", `/api/courses/${course.id}/questions`, { cookie });
    expect(denied.statusCode).toBe(403);
  });

  it("gives one grade to an attempt submitted many times at once", async () => {
    const { course, cookie, questions } = await buildExamCourse(ctx, video, { pool: 4 });
    const attempt = (await start(cookie, course.id)).json() as Attempt;
    const right = answersFor(attempt.questions, questions);
    const wrong = answersFor(attempt.questions, questions, () => false);
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) => submit(cookie, attempt.id, i % 2 ? right : wrong)),
    );
    const ok = responses.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(1);
    for (const r of responses.filter((r) => r.statusCode !== 200)) {
      expect(r.statusCode).toBe(409);
      expect(r.json().message).toBe(ASSESSMENT_MESSAGES.alreadySubmitted);
    }
    const rows = await ctx.database.db
      .select()
      .from(examAttempts)
      .where(eq(examAttempts.id, attempt.id));
    expect(rows[0]!.score).toBe((ok[0]!.json() as SubmitResult).score);
    const submitted = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.type, "exam.attempt_submitted"));
    expect(submitted).toHaveLength(1);
    // A graded attempt is a record of credit: the database refuses to rewrite it.
    await expect(
      ctx.database.db.execute(
        sql`update exam_attempts set passed = not passed where id = ${attempt.id}`,
      ),
    ).rejects.toThrow();
  });

  it("grades an attempt past its deadline and grace as it was saved", async () => {
    const { course, cookie, questions } = await buildExamCourse(ctx, video, {
      pool: 4,
      settings: { timeLimitMinutes: 10, passMark: 50 },
    });
    const attempt = (await start(cookie, course.id)).json() as Attempt;
    expect(new Date(attempt.deadline!).getTime() - new Date(attempt.startedAt).getTime()).toBe(
      600_000,
    );
    // Two right answers saved in time: 50%.
    const saved = answersFor(attempt.questions, questions, (i) => i < 2);
    await call(ctx, "PUT", `/api/exam-attempts/${attempt.id}/answers`, {
      cookie,
      payload: { answers: saved },
    });
    // Within the 30 s grace a save still counts.
    advance(10 * 60_000 + 20_000);
    const inGrace = await call(ctx, "PUT", `/api/exam-attempts/${attempt.id}/answers`, {
      cookie,
      payload: { answers: saved },
    });
    expect(inGrace.statusCode).toBe(200);
    // Past it, an all-correct submission is not what counts: the saved answers are.
    advance(11_000);
    const late = await submit(cookie, attempt.id, answersFor(attempt.questions, questions));
    expect(late.statusCode).toBe(200);
    expect(late.json()).toMatchObject({ score: 50, passed: true });

    // An attempt left open past its deadline is graded when the learner next looks.
    const second = await buildExamCourse(ctx, video, {
      pool: 4,
      settings: { timeLimitMinutes: 5, maxAttempts: 1 },
    });
    const open = (await start(second.cookie, second.course.id)).json() as Attempt;
    advance(6 * 60_000);
    const after = await status(second.cookie, second.course.id);
    expect(after.current).toBeNull();
    expect(after.attempts[0]).toMatchObject({ id: open.id, score: 0, passed: false });
    expect(after).toMatchObject({ attemptsLeft: 0, canStart: false });
    const tooLate = await call(ctx, "PUT", `/api/exam-attempts/${open.id}/answers`, {
      cookie: second.cookie,
      payload: { answers: [] },
    });
    expect(tooLate.statusCode).toBe(409);
  });

  it("locks the exam after the last allowed attempt until an administrator grants one more", async () => {
    const { course, cookie, questions, adminCookie, enrollment } = await buildExamCourse(
      ctx,
      video,
      {
        pool: 4,
        settings: { maxAttempts: 2 },
      },
    );
    for (let i = 0; i < 2; i++) {
      const attempt = (await start(cookie, course.id)).json() as Attempt;
      const result = (
        await submit(
          cookie,
          attempt.id,
          answersFor(attempt.questions, questions, () => false),
        )
      ).json() as SubmitResult;
      expect(result.attemptsLeft).toBe(1 - i);
    }
    const locked = await start(cookie, course.id);
    expect(locked.statusCode).toBe(409);
    expect(locked.json().message).toBe(ASSESSMENT_MESSAGES.noAttemptsLeft);
    expect(await status(cookie, course.id)).toMatchObject({
      attemptsUsed: 2,
      attemptsLeft: 0,
      canStart: false,
      blockedReason: ASSESSMENT_MESSAGES.noAttemptsLeft,
    });

    // Only an administrator grants, and the grant is on the audit chain.
    const byLearner = await call(
      ctx,
      "POST",
      `/api/enrollments/${enrollment.id}/exam/extra-attempt`,
      {
        cookie,
      },
    );
    expect(byLearner.statusCode).toBe(403);
    const granted = await call(
      ctx,
      "POST",
      `/api/enrollments/${enrollment.id}/exam/extra-attempt`,
      {
        cookie: adminCookie,
      },
    );
    expect(granted.statusCode).toBe(200);
    expect(await status(cookie, course.id)).toMatchObject({ attemptsLeft: 1, canStart: true });
    const third = await start(cookie, course.id);
    expect(third.statusCode).toBe(201);
    expect((third.json() as Attempt).number).toBe(3);
    // The answer to a submission counts every grant: 2 allowed + 2 granted - 3 used.
    const again = await call(ctx, "POST", `/api/enrollments/${enrollment.id}/exam/extra-attempt`, {
      cookie: adminCookie,
    });
    expect(again.statusCode).toBe(200);
    const thirdAttempt = third.json() as Attempt;
    const thirdResult = await submit(
      cookie,
      thirdAttempt.id,
      answersFor(thirdAttempt.questions, questions, () => false),
    );
    expect(thirdResult.json()).toMatchObject({ passed: false, attemptsLeft: 1 });
    const grants = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.type, "exam.extra_attempt_granted"));
    expect(grants).toHaveLength(2);
    const missing = await call(ctx, "POST", "/api/enrollments/nope/exam/extra-attempt", {
      cookie: adminCookie,
    });
    expect(missing.statusCode).toBe(404);
  });

  it("refuses another learner's attempt, undrawn questions and unpresented options", async () => {
    const { course, cookie, questions, adminCookie } = await buildExamCourse(ctx, video, {
      pool: 6,
      settings: { questionCount: 3 },
    });
    const attempt = (await start(cookie, course.id)).json() as Attempt;
    const undrawn = questions.find((q) => !attempt.questions.some((p) => p.id === q.id))!;
    const bad = [
      [{ questionId: undrawn.id, optionIds: [undrawn.options[0]!.id] }],
      [{ questionId: attempt.questions[0]!.id, optionIds: [undrawn.options[0]!.id] }],
      [{ questionId: "nope", optionIds: [] }],
    ];
    for (const answers of bad) {
      const saved = await call(ctx, "PUT", `/api/exam-attempts/${attempt.id}/answers`, {
        cookie,
        payload: { answers },
      });
      expect(saved.statusCode).toBe(400);
      expect(saved.json().message).toBe(ASSESSMENT_MESSAGES.notPresented);
      expect((await submit(cookie, attempt.id, answers)).statusCode).toBe(400);
    }
    const two = [
      {
        questionId: attempt.questions[0]!.id,
        optionIds: attempt.questions[0]!.options.slice(0, 2).map((o) => o.id),
      },
    ];
    expect((await submit(cookie, attempt.id, two)).json().message).toBe(
      ASSESSMENT_MESSAGES.oneOptionOnly,
    );
    // Nothing was graded by the refused submissions.
    expect((await status(cookie, course.id)).current?.id).toBe(attempt.id);

    const other = await quickLearner(ctx);
    const otherCookie = await signInAs(ctx, other);
    await call(ctx, "POST", "/api/enrollments", {
      cookie: adminCookie,
      payload: { userId: other.id, courseId: course.id },
    });
    for (const response of [
      await submit(otherCookie, attempt.id, []),
      await call(ctx, "PUT", `/api/exam-attempts/${attempt.id}/answers`, {
        cookie: otherCookie,
        payload: { answers: [] },
      }),
      await call(ctx, "GET", `/api/exam-attempts/${attempt.id}`, { cookie: otherCookie }),
    ]) {
      expect(response.statusCode).toBe(403);
    }
    // Nor may they start before finishing the modules.
    const early = await start(otherCookie, course.id);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(ASSESSMENT_MESSAGES.examNotOpen);
  });

  it("keeps what an attempt showed when questions are edited or deleted afterwards", async () => {
    const { course, cookie, questions, adminCookie } = await buildExamCourse(ctx, video, {
      pool: 4,
      settings: { revealAnswers: "always" },
    });
    const attempt = (await start(cookie, course.id)).json() as Attempt;
    const target = attempt.questions[0]!;
    const edited = await call(ctx, "PUT", `/api/courses/${course.id}/questions/${target.id}`, {
      cookie: adminCookie,
      payload: questionBody(99, { text: "Rewritten?" }),
    });
    expect(edited.statusCode).toBe(200);
    const deleted = await call(
      ctx,
      "DELETE",
      `/api/courses/${course.id}/questions/${attempt.questions[1]!.id}`,
      { cookie: adminCookie },
    );
    // Deleting would leave 3 questions for an exam drawing 4 on a published course.
    expect(deleted.statusCode).toBe(409);
    await addQuestion(ctx, adminCookie, course.id, questionBody(50));
    const removed = await call(
      ctx,
      "DELETE",
      `/api/courses/${course.id}/questions/${attempt.questions[1]!.id}`,
      { cookie: adminCookie },
    );
    expect(removed.statusCode).toBe(200);

    const resumed = (await start(cookie, course.id)).json() as Attempt;
    expect(resumed.questions).toEqual(attempt.questions);
    const result = (
      await submit(cookie, attempt.id, answersFor(attempt.questions, questions))
    ).json() as SubmitResult;
    // Graded against what was shown, with the options the learner saw.
    expect(result).toMatchObject({ score: 100, passed: true });
    expect(result.review!.find((r) => r.questionId === target.id)!.text).toBe(target.text);
  });

  it("completes the course only at the pass, issuing the certificate with the exam's score then", async () => {
    const { course, cookie, questions, learner } = await buildExamCourse(ctx, video, {
      modules: 2,
      pool: 4,
      settings: { maxAttempts: 3 },
      completeModules: false,
    });
    // Before the modules are done, the exam is not open.
    expect((await start(cookie, course.id)).statusCode).toBe(409);
    for (const module of course.modules) {
      const r = await call(ctx, "POST", "/api/progress/update", {
        cookie,
        payload: { userId: learner.id, courseId: course.id, moduleId: module.id, progress: 0 },
      });
      expect(r.statusCode).toBe(200);
    }
    const enrollmentNow = async () =>
      (
        (
          await call(ctx, "GET", `/api/enrollments/user/${learner.id}`, { cookie })
        ).json() as EnrollmentWithRelations[]
      )[0]!;
    expect(await enrollmentNow()).toMatchObject({
      progress: 100,
      isCompleted: false,
      completedAt: null,
    });
    const completion = (
      await call(ctx, "GET", `/api/courses/${course.id}/completion`, { cookie })
    ).json() as Completion;
    expect(completion).toMatchObject({ isCompleted: false, next: "exam" });
    expect(completion.steps.filter((s) => s.required)).toMatchObject([
      { key: "modules", label: "Modules", done: true },
      { key: "exam", label: "Final exam", done: false },
      { key: "certificate", label: "Certificate", done: false },
    ]);
    expect(await ctx.database.db.select().from(certificates)).toHaveLength(0);

    const failed = (await start(cookie, course.id)).json() as Attempt;
    await submit(
      cookie,
      failed.id,
      answersFor(failed.questions, questions, () => false),
    );
    expect((await enrollmentNow()).isCompleted).toBe(false);

    advance(60_000);
    const second = (await start(cookie, course.id)).json() as Attempt;
    const passed = (
      await submit(
        cookie,
        second.id,
        answersFor(second.questions, questions, (i) => i > 0),
      )
    ).json() as SubmitResult;
    expect(passed).toMatchObject({ score: 75, passed: true, attemptsLeft: 1 });
    const done = await enrollmentNow();
    expect(done.isCompleted).toBe(true);
    expect(done.completedAt).toBe(clock.toISOString());
    const [certificate] = await ctx.database.db.select().from(certificates);
    expect(certificate).toMatchObject({ examScore: 75, completedAt: clock });
    expect(certificate!.examPassedAt?.toISOString()).toBe(clock.toISOString());
    // The transcript shows the exam's date and score.
    const transcript = await call(ctx, "GET", `/api/learners/${learner.id}/transcript`, { cookie });
    expect(transcript.json().entries[0]).toMatchObject({
      examScore: 75,
      examPassedAt: clock.toISOString(),
    });
    // Passed: no further attempts.
    const more = await start(cookie, course.id);
    expect(more.statusCode).toBe(409);
    expect(more.json().message).toBe(ASSESSMENT_MESSAGES.alreadyPassed);
    expect(
      (await call(ctx, "GET", `/api/courses/${course.id}/completion`, { cookie })).json(),
    ).toMatchObject({
      isCompleted: true,
      next: null,
    });

    // Every step is on the audit chain, in order.
    const events = await ctx.database.db
      .select({ type: auditEvents.type, details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.learnerId, learner.id))
      .orderBy(auditEvents.id);
    expect(events.map((e) => e.type)).toEqual([
      "enrollment.created",
      "module.completed",
      "module.completed",
      "exam.attempt_started",
      "exam.attempt_submitted",
      "exam.attempt_started",
      "exam.attempt_submitted",
      "course.completed",
      "certificate.issued",
    ]);
    expect(events[6]!.details).toMatchObject({ score: 75, passed: true, passMark: 70 });
  });

  it("keeps graded attempts when the learner and the course are deleted", async () => {
    const { course, cookie, questions, adminCookie, learner } = await buildExamCourse(ctx, video, {
      pool: 4,
    });
    const attempt = (await start(cookie, course.id)).json() as Attempt;
    await submit(cookie, attempt.id, answersFor(attempt.questions, questions));
    const gone = [
      await call(ctx, "DELETE", `/api/users/learners/${learner.id}`, { cookie: adminCookie }),
      await call(ctx, "DELETE", `/api/courses/${course.id}`, { cookie: adminCookie }),
    ];
    expect(gone.map((r) => r.statusCode)).toEqual([200, 200]);
    const [kept] = await ctx.database.db.select().from(examAttempts);
    expect(kept).toMatchObject({
      id: attempt.id,
      userId: null,
      courseId: null,
      enrollmentId: null,
      learnerEmail: learner.email,
      score: 100,
      passed: true,
    });
    expect(kept!.questions.map((q) => q.id)).toEqual(attempt.questions.map((q) => q.id));
  });
});
