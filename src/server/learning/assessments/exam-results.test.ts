import { describe, expect, it } from "vitest";
import type { Attempt, ExamResults } from "../../../contract";
import { answersFor, buildExamCourse } from "../../testing/assessments";
import { call, useSharedVideo } from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";

describe("GET /api/courses/{id}/exam/results", () => {
  const ctx = useTestApp();
  const video = useSharedVideo(ctx);

  it("reports attempts per learner, the course's pass rate and each question's share answered correctly, as JSON and CSV", async () => {
    const { course, cookie, questions, adminCookie, learner } = await buildExamCourse(ctx, video, {
      pool: 4,
      settings: { maxAttempts: 3 },
    });
    const start = async () =>
      (
        await call(ctx, "POST", `/api/courses/${course.id}/exam/attempts`, { cookie })
      ).json() as Attempt;
    const first = await start();
    // Wrong on every question but the one that is first in the bank.
    const bankFirst = questions[0]!.id;
    await call(ctx, "POST", `/api/exam-attempts/${first.id}/submit`, {
      cookie,
      payload: {
        answers: answersFor(
          first.questions,
          questions,
          (i) => first.questions[i]!.id === bankFirst,
        ),
      },
    });
    const second = await start();
    await call(ctx, "POST", `/api/exam-attempts/${second.id}/submit`, {
      cookie,
      payload: { answers: answersFor(second.questions, questions) },
    });

    const response = await call(ctx, "GET", `/api/courses/${course.id}/exam/results`, {
      cookie: adminCookie,
    });
    expect(response.statusCode).toBe(200);
    const results = response.json() as ExamResults;
    expect(results.summary).toEqual({
      learners: 1,
      attempts: 2,
      passed: 1,
      passRate: 100,
      averageScore: 62.5,
      averageAttemptsToPass: 2,
    });
    expect(results.learners).toHaveLength(1);
    expect(results.learners[0]).toMatchObject({
      userId: learner.id,
      email: learner.email,
      passed: true,
      bestScore: 100,
      attemptsLeft: 1,
      attempts: [
        { number: 1, score: 25, passed: false },
        { number: 2, score: 100, passed: true },
      ],
    });
    expect(results.learners[0]!.attempts[0]!.durationSeconds).toBeGreaterThanOrEqual(0);
    const item = (id: string) => results.questions.find((q) => q.questionId === id)!;
    expect(item(bankFirst)).toMatchObject({
      presented: 2,
      answeredCorrectly: 2,
      percentCorrect: 100,
    });
    expect(item(questions[1]!.id)).toMatchObject({
      presented: 2,
      answeredCorrectly: 1,
      percentCorrect: 50,
    });

    const csv = await call(
      ctx,
      "GET",
      `/api/courses/${course.id}/exam/results?format=csv&view=attempts`,
      {
        cookie: adminCookie,
      },
    );
    expect(csv.headers["content-type"]).toContain("text/csv");
    const lines = csv.body
      .replace(/^\ufeff/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("Learner,Email,Attempt,Started,Submitted,Duration (s),Score (%),Passed");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain(",100,yes");
    const items = await call(
      ctx,
      "GET",
      `/api/courses/${course.id}/exam/results?format=csv&view=questions`,
      {
        cookie: adminCookie,
      },
    );
    expect(items.body).toContain("Question 1?,2,2,100");
    const summary = await call(
      ctx,
      "GET",
      `/api/courses/${course.id}/exam/results?format=csv&view=summary`,
      {
        cookie: adminCookie,
      },
    );
    expect(summary.body.trim().split("\r\n")[1]).toBe("1,2,1,100,62.5,2");

    expect(
      (await call(ctx, "GET", `/api/courses/${course.id}/exam/results`, { cookie })).statusCode,
    ).toBe(403);
    const unknown = await call(ctx, "GET", "/api/courses/nope/exam/results?format=csv", {
      cookie: adminCookie,
    });
    expect(unknown.statusCode).toBe(404);
  });
});
