import { describe, expect, it } from "vitest";
import {
  ASSESSMENT_MESSAGES,
  type Attempt,
  CREDIT_MESSAGES,
  DEFAULT_ACTIVITY,
  type Question,
} from "../../contract";
import { addQuestion, answersFor, buildExamCourse, questionBody } from "../testing/assessments";
import {
  buildPublishedCourse,
  call,
  enrollViaApi,
  postProgress,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../testing/learning";
import { useTestApp } from "../testing/test-app";
import { expectRefusal, expectUnchanged, snapshotAll } from "./support";

const DAY_MS = 86_400_000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

describe("assessment attacks", () => {
  // The credit and exam clock, moved by hand; each test starts it at the real time, since
  // the database dates the enrollment.
  let clock = new Date();
  const ctx = useTestApp({}, { clock: () => clock });
  const video = useSharedVideo(ctx);

  it("refuses a module's review answered by choosing nothing, and keeps the module incomplete", async () => {
    clock = new Date();
    const admin = await quickAdmin(ctx);
    const adminCookie = await signInAs(ctx, admin);
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video: await video(adminCookie),
      modules: 1,
      draft: true,
    });
    const moduleId = course.modules[0]!.id;
    const questions: Question[] = [];
    for (const n of [1, 2]) {
      const body = questionBody(n, { pool: "review", moduleId });
      questions.push(await addQuestion(ctx, adminCookie, course.id, body));
    }
    await call(ctx, "PATCH", `/api/courses/${course.id}/publish`, { cookie: adminCookie });
    const learner = await quickLearner(ctx);
    const cookie = await signInAs(ctx, learner);
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    const before = await snapshotAll(ctx);

    // The attack: every question "answered" with no option at all.
    const skipped = await call(
      ctx,
      "POST",
      `/api/courses/${course.id}/modules/${moduleId}/review`,
      {
        cookie,
        payload: { answers: questions.map((q) => ({ questionId: q.id, optionIds: [] })) },
      },
    );
    expectRefusal(skipped, 400, "empty choices");
    expect(skipped.json()).toEqual({
      message: ASSESSMENT_MESSAGES.reviewChoiceRequired,
      code: "review.choice_required",
    });
    // One real answer beside an empty one is refused as a whole.
    const half = await call(ctx, "POST", `/api/courses/${course.id}/modules/${moduleId}/review`, {
      cookie,
      payload: {
        answers: [
          { questionId: questions[0]!.id, optionIds: [questions[0]!.options[0]!.id] },
          { questionId: questions[1]!.id, optionIds: [] },
        ],
      },
    });
    expectRefusal(half, 400, "one empty choice");
    const complete = await postProgress(ctx, cookie, {
      userId: learner.id,
      courseId: course.id,
      moduleId,
    });
    expectRefusal(complete, 409, "completing the module");
    expect(complete.json().code).toBe("review.answer_first");
    await expectUnchanged(ctx, before);
  });

  it("says what is wrong with two answers to one question, and records nothing", async () => {
    clock = new Date();
    const { cookie, course, questions } = await buildExamCourse(ctx, video);
    const started = await call(ctx, "POST", `/api/courses/${course.id}/exam/attempts`, { cookie });
    expect(started.statusCode, started.body).toBe(201);
    const attempt = started.json() as Attempt;
    const before = await snapshotAll(ctx);
    const [first] = answersFor(attempt.questions, questions);
    const twice = [first!, { ...first!, optionIds: [attempt.questions[0]!.options.at(-1)!.id] }];
    for (const path of [
      `exam-attempts/${attempt.id}/answers`,
      `exam-attempts/${attempt.id}/submit`,
    ]) {
      const method = path.endsWith("answers") ? "PUT" : "POST";
      const response = await call(ctx, method, `/api/${path}`, {
        cookie,
        payload: { answers: twice },
      });
      expectRefusal(response, 400, path);
      expect(response.json()).toEqual({
        message: ASSESSMENT_MESSAGES.answeredTwice,
        code: "exam.question_answered_twice",
      });
    }
    await expectUnchanged(ctx, before);
  });

  it("neither starts nor grades an exam once the course has expired", async () => {
    clock = new Date();
    const { adminCookie, cookie, course, questions } = await buildExamCourse(ctx, video);
    const activity = await call(ctx, "PUT", `/api/courses/${course.id}/activity`, {
      cookie: adminCookie,
      payload: { ...DEFAULT_ACTIVITY, expirationDate: dayOf(new Date(clock.getTime() + DAY_MS)) },
    });
    expect(activity.statusCode, activity.body).toBe(200);
    const started = await call(ctx, "POST", `/api/courses/${course.id}/exam/attempts`, { cookie });
    expect(started.statusCode, started.body).toBe(201);
    const attempt = started.json() as Attempt;

    clock = new Date(clock.getTime() + 3 * DAY_MS);
    const before = await snapshotAll(ctx);
    // The attack: a passing submission of the attempt in progress, and a fresh attempt.
    const submitted = await call(ctx, "POST", `/api/exam-attempts/${attempt.id}/submit`, {
      cookie,
      payload: { answers: answersFor(attempt.questions, questions) },
    });
    expectRefusal(submitted, 409, "submit");
    expect(submitted.json()).toEqual({
      message: CREDIT_MESSAGES.courseExpired,
      code: "credit.expired",
    });
    const again = await call(ctx, "POST", `/api/courses/${course.id}/exam/attempts`, { cookie });
    expectRefusal(again, 409, "start");
    expect(again.json().code).toBe("credit.expired");
    await expectUnchanged(ctx, before);
  });
});
