import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  ASSESSMENT_MESSAGES,
  type Question,
  type Review,
  type ReviewResult,
} from "../../../contract";
import { auditEvents } from "../../platform/audit/audit.table";
import { addQuestion, questionBody, saveExamSettings } from "../../testing/assessments";
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
import { useTestApp } from "../../testing/test-app";

describe("review questions", () => {
  const ctx = useTestApp();
  const video = useSharedVideo(ctx);

  /** A published two-module course with two review questions on module 1, and a learner. */
  async function setup() {
    const admin = await quickAdmin(ctx);
    const adminCookie = await signInAs(ctx, admin);
    const draft = await buildPublishedCourse(ctx, adminCookie, {
      video: await video(adminCookie),
      modules: 2,
      draft: true,
    });
    const [first, second] = draft.modules;
    const review = (n: number, kind: "single" | "multiple" = "single") =>
      addQuestion(
        ctx,
        adminCookie,
        draft.id,
        questionBody(n, { pool: "review", moduleId: first!.id, kind }),
      );
    const questions: Question[] = [await review(1), await review(2, "multiple")];
    await call(ctx, "PATCH", `/api/courses/${draft.id}/publish`, { cookie: adminCookie });
    const learner = await quickLearner(ctx);
    const cookie = await signInAs(ctx, learner);
    await enrollViaApi(ctx, adminCookie, learner.id, draft.id);
    const url = (moduleId: string) => `/api/courses/${draft.id}/modules/${moduleId}/review`;
    const complete = (moduleId: string) =>
      postProgress(ctx, cookie, { userId: learner.id, courseId: draft.id, moduleId });
    return {
      adminCookie,
      course: draft,
      first: first!,
      second: second!,
      questions,
      learner,
      cookie,
      url,
      complete,
    };
  }

  it("shows a module's questions without answers, grades them on the server with feedback, then lets the module complete", async () => {
    const { first, questions, cookie, url, complete, learner } = await setup();
    const read = await call(ctx, "GET", url(first.id), { cookie });
    const review = read.json() as Review;
    expect(review.answered).toBe(false);
    expect(review.questions.map((q) => q.id)).toEqual(questions.map((q) => q.id));
    for (const key of ["correct", "feedback", "explanation"])
      expect(read.body).not.toContain(`"${key}"`);

    const refused = await complete(first.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(ASSESSMENT_MESSAGES.reviewFirst);

    // One right, one wrong: a correct answer is not required, answering is.
    const [single, multiple] = questions as [Question, Question];
    const answered = await call(ctx, "POST", url(first.id), {
      cookie,
      payload: {
        answers: [
          { questionId: single.id, optionIds: [single.options[0]!.id] },
          { questionId: multiple.id, optionIds: [multiple.options[0]!.id] },
        ],
      },
    });
    expect(answered.statusCode).toBe(200);
    expect((answered.json() as ReviewResult).results).toEqual([
      { questionId: single.id, correct: true, feedback: "Yes 1 Because 1." },
      { questionId: multiple.id, correct: false, feedback: "Yes 2 Because 2." },
    ]);
    expect(((await call(ctx, "GET", url(first.id), { cookie })).json() as Review).answered).toBe(
      true,
    );
    expect((await complete(first.id)).statusCode).toBe(200);

    const events = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.type, "review.answered"));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ learnerId: learner.id, moduleId: first.id });
    expect(events[0]!.details).toMatchObject({ answered: 2, correct: 1 });
  });

  it("answers only for an enrolled learner, on an unlocked module, naming its own questions", async () => {
    const { course, first, second, questions, cookie, url, adminCookie } = await setup();
    const locked = await call(ctx, "GET", url(second.id), { cookie });
    expect(locked.statusCode).toBe(409);
    const foreign = await addQuestion(ctx, adminCookie, course.id, questionBody(9));
    const wrong = await call(ctx, "POST", url(first.id), {
      cookie,
      payload: { answers: [{ questionId: foreign.id, optionIds: [foreign.options[0]!.id] }] },
    });
    expect(wrong.statusCode).toBe(400);
    const bogusOption = await call(ctx, "POST", url(first.id), {
      cookie,
      payload: { answers: [{ questionId: questions[0]!.id, optionIds: ["nope"] }] },
    });
    expect(bogusOption.statusCode).toBe(400);
    const stranger = await quickLearner(ctx);
    const strangerCookie = await signInAs(ctx, stranger);
    expect((await call(ctx, "GET", url(first.id), { cookie: strangerCookie })).statusCode).toBe(
      403,
    );
    expect((await call(ctx, "GET", url(first.id), { cookie: adminCookie })).statusCode).toBe(403);
  });

  it("lets a module complete unanswered when the course makes review optional", async () => {
    const { course, first, adminCookie, complete } = await setup();
    await saveExamSettings(ctx, adminCookie, course.id, { reviewRequired: false });
    expect((await complete(first.id)).statusCode).toBe(200);
  });
});
