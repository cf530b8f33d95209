import { describe, expect, it } from "vitest";
import {
  type Attempt,
  type AttemptResult,
  MAX_QUESTIONS_PER_COURSE,
  QUESTION_CSV_COLUMNS,
} from "../../contract";
import type { IdentityService, VerifiedIdentity } from "../identity/firebase-identity";
import { questions } from "../learning/assessments/assessments.table";
import { appError } from "../plugins/errors";
import { addQuestion, answersFor, buildExamCourse, questionBody } from "../testing/assessments";
import { moduleId } from "../testing/courses";
import {
  buildPublishedCourse,
  call,
  enrollViaApi,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../testing/learning";
import { useTestApp } from "../testing/test-app";

/**
 * Answers the document lists that no feature test gave yet: the OpenAPI coverage test
 * asks for every documented answer to be seen once. Each belongs with its feature's tests.
 */

describe("answers of the exam and the question bank", () => {
  const ctx = useTestApp();
  const video = useSharedVideo(ctx);

  it("shows an attempt's result once graded (409 exam.not_graded before, 200 after)", async () => {
    const { course, cookie, questions: bank } = await buildExamCourse(ctx, video);
    const attempt = (
      await call(ctx, "POST", `/api/courses/${course.id}/exam/attempts`, { cookie })
    ).json() as Attempt;
    const early = await call(ctx, "GET", `/api/exam-attempts/${attempt.id}`, { cookie });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: "exam.not_graded" });
    const answers = answersFor(attempt.questions, bank);
    await call(ctx, "POST", `/api/exam-attempts/${attempt.id}/submit`, {
      cookie,
      payload: { answers },
    });
    const result = await call(ctx, "GET", `/api/exam-attempts/${attempt.id}`, { cookie });
    expect(result.statusCode).toBe(200);
    expect((result.json() as AttemptResult).passed).toBe(true);
  });

  it("keeps a published exam drawable when a question moves out of the final pool (409)", async () => {
    const { course, adminCookie, questions: bank } = await buildExamCourse(ctx, video);
    const moved = await call(ctx, "PUT", `/api/courses/${course.id}/questions/${bank[0]!.id}`, {
      cookie: adminCookie,
      payload: questionBody(1, { pool: "review", moduleId: course.modules[0]!.id }),
    });
    expect(moved.statusCode).toBe(409);
    expect(moved.json()).toMatchObject({ code: "exam.not_enough_questions" });
  });

  it("refuses a question past the bank's limit, added or imported (409 questions.too_many)", async () => {
    const adminCookie = await signInAs(ctx, await quickAdmin(ctx));
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video: await video(adminCookie),
    });
    const first = await addQuestion(ctx, adminCookie, course.id, questionBody(0));
    const { id: _, ...row } = (await ctx.database.db.select().from(questions))[0]!;
    await ctx.database.db.insert(questions).values(
      Array.from({ length: MAX_QUESTIONS_PER_COURSE - 1 }, (_, i) => ({
        ...row,
        position: first.position + i + 1,
      })),
    );
    const added = await call(ctx, "POST", `/api/courses/${course.id}/questions`, {
      cookie: adminCookie,
      payload: questionBody(1),
    });
    expect(added.statusCode).toBe(409);
    expect(added.json()).toMatchObject({ code: "questions.too_many" });
    const csv = [
      QUESTION_CSV_COLUMNS.join(","),
      "final,,true_false,One more?,True,False,,,,,,,A",
    ].join("\n");
    const imported = await call(ctx, "POST", `/api/courses/${course.id}/questions/import`, {
      cookie: adminCookie,
      payload: { csv, dryRun: false },
    });
    expect(imported.statusCode, imported.body).toBe(409);
    expect(imported.json()).toMatchObject({ code: "questions.too_many" });
  });

  it("answers a module the course does not have with 404, in review questions", async () => {
    const adminCookie = await signInAs(ctx, await quickAdmin(ctx));
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video: await video(adminCookie),
    });
    const learner = await quickLearner(ctx);
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    const cookie = await signInAs(ctx, learner);
    const url = `/api/courses/${course.id}/modules/${moduleId(999)}/review`;
    for (const response of [
      await call(ctx, "GET", url, { cookie }),
      await call(ctx, "POST", url, { cookie, payload: { answers: [] } }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: "courses.module_not_found" });
    }
  });
});

describe("answers of object downloads", () => {
  const ctx = useTestApp();
  const video = useSharedVideo(ctx);

  it("answers a range past the object's end with 416", async () => {
    const adminCookie = await signInAs(ctx, await quickAdmin(ctx));
    const response = await ctx.app.inject({
      method: "GET",
      url: await video(adminCookie),
      headers: { cookie: adminCookie, range: "bytes=999999999-" },
    });
    expect(response.statusCode).toBe(416);
    expect(response.json()).toMatchObject({ code: "request.invalid" });
  });
});

describe("answers of sign-in with an identity service", () => {
  /**
   * An identity service that verifies `token:<uid>:<email>` tokens, refuses `forged` ones,
   * and is down for `down` ones; `exists` says whether an account is still there.
   */
  let accountsExist: boolean | "down" = true;
  const identity: IdentityService = {
    configured: true,
    async verifyIdToken(token: string): Promise<VerifiedIdentity> {
      if (token === "down") throw appError(503, "auth.identity_unavailable", "Down.");
      const [kind, uid, email] = token.split(":");
      if (kind !== "token" || !uid) throw appError(401, "auth.identity_token_invalid", "Forged.");
      return { uid, email: email ?? null, emailVerified: true };
    },
    async exists() {
      if (accountsExist === "down") throw new Error("identity service unreachable");
      return accountsExist;
    },
    setDisabled: async () => {},
    deleteUser: async () => {},
    updatePassword: async () => {},
    close: async () => {},
  };
  const ctx = useTestApp({}, { identity: () => identity });
  const post = (url: string, payload: object) => call(ctx, "POST", url, { payload });

  it("refuses an account bound to another identity (409), or when the service is down (503)", async () => {
    const learner = await quickLearner(ctx, { firebaseUid: "uid-bound-before" });
    const token = `token:uid-new:${learner.email}`;
    accountsExist = true;
    for (const [url, payload] of [
      ["/api/auth/login", { email: learner.email, firebaseIdToken: token }],
      ["/api/auth/firebase-sync", { email: learner.email, firebaseIdToken: token }],
    ] as const) {
      const response = await post(url, payload);
      expect(response.statusCode, url).toBe(409);
      expect(response.json()).toMatchObject({ code: "auth.identity_in_use" });
    }
    accountsExist = "down";
    const down = await post("/api/auth/firebase-sync", { firebaseIdToken: token });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ code: "auth.identity_unavailable" });
  });

  it("refuses a first-time setup with a forged (401) or unverifiable (503) token", async () => {
    const learner = await quickLearner(ctx, { password: null });
    const setup = (firebaseIdToken: string) =>
      post("/api/auth/setup-password", {
        email: learner.email,
        password: "a long enough password",
        name: "Learner",
        firebaseIdToken,
      });
    const forged = await setup("forged");
    expect(forged.statusCode, forged.body).toBe(401);
    expect(forged.json()).toMatchObject({ code: "auth.identity_token_invalid" });
    const down = await setup("down");
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ code: "auth.identity_unavailable" });
  });
});
