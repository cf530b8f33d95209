import { describe, expect, it } from "vitest";
import {
  DEFAULT_EXAM_SETTINGS,
  type ExamSettings,
  QUESTION_CSV_COLUMNS,
  type Question,
  type QuestionImportResult,
} from "../../../contract";
import { addQuestion, questionBody, saveExamSettings } from "../../testing/assessments";
import { creditOffer, creditType } from "../../testing/credit-claim";
import {
  buildPublishedCourse,
  call,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";

describe("question bank and exam settings", () => {
  const ctx = useTestApp();
  const video = useSharedVideo(ctx);

  async function setup(options: { modules?: number; draft?: boolean } = {}) {
    const admin = await quickAdmin(ctx);
    const adminCookie = await signInAs(ctx, admin);
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video: await video(adminCookie),
      modules: options.modules ?? 2,
      draft: options.draft ?? true,
    });
    const list = async () =>
      (
        await call(ctx, "GET", `/api/courses/${course.id}/questions`, { cookie: adminCookie })
      ).json() as Question[];
    return { adminCookie, course, list };
  }

  it("adds, edits, reorders and deletes questions, with server ids for options", async () => {
    const { adminCookie, course, list } = await setup();
    const a = await addQuestion(ctx, adminCookie, course.id, questionBody(1));
    const b = await addQuestion(
      ctx,
      adminCookie,
      course.id,
      questionBody(2, { pool: "review", moduleId: course.modules[0]!.id, kind: "multiple" }),
    );
    const c = await addQuestion(
      ctx,
      adminCookie,
      course.id,
      questionBody(3, { kind: "true_false" }),
    );
    expect(a).toMatchObject({ pool: "final", moduleId: null, kind: "single", position: 0 });
    expect(a.options.every((o) => o.id.length > 8)).toBe(true);
    expect(a.options[0]).toMatchObject({ text: "Right 1", correct: true, feedback: "Yes 1" });
    expect(b).toMatchObject({ pool: "review", moduleId: course.modules[0]!.id, position: 1 });

    const edited = await call(ctx, "PUT", `/api/courses/${course.id}/questions/${a.id}`, {
      cookie: adminCookie,
      payload: questionBody(1, { text: "  Edited?  ", explanation: "" }),
    });
    expect(edited.json()).toMatchObject({
      id: a.id,
      text: "Edited?",
      explanation: null,
      position: 0,
    });

    // Reordering the final pool leaves the review question where it was.
    const order = await call(ctx, "PUT", `/api/courses/${course.id}/questions/order`, {
      cookie: adminCookie,
      payload: { questionIds: [c.id, a.id] },
    });
    expect(order.statusCode).toBe(200);
    expect((await list()).map((q) => [q.id, q.position])).toEqual([
      [c.id, 0],
      [b.id, 1],
      [a.id, 2],
    ]);
    for (const questionIds of [
      [c.id, c.id],
      [a.id, "nope"],
    ]) {
      const refused = await call(ctx, "PUT", `/api/courses/${course.id}/questions/order`, {
        cookie: adminCookie,
        payload: { questionIds },
      });
      expect(refused.statusCode).toBe(400);
    }

    const removed = await call(ctx, "DELETE", `/api/courses/${course.id}/questions/${b.id}`, {
      cookie: adminCookie,
    });
    expect(removed.statusCode).toBe(200);
    expect((await list()).map((q) => q.id)).toEqual([c.id, a.id]);
    const again = await call(ctx, "DELETE", `/api/courses/${course.id}/questions/${b.id}`, {
      cookie: adminCookie,
    });
    expect(again.statusCode).toBe(404);
  });

  it("refuses invalid questions with a named field and changes nothing", async () => {
    const { adminCookie, course, list } = await setup();
    const cases: [Record<string, unknown>, string][] = [
      [{ options: questionBody(1).options.map((o) => ({ ...o, correct: false })) }, "at least one"],
      [{ options: questionBody(1).options.map((o) => ({ ...o, correct: true })) }, "exactly one"],
      [{ kind: "true_false", options: questionBody(1).options }, "exactly 2"],
      [{ options: [{ text: "Only", correct: true }] }, "between 2 and 8"],
      [
        { options: Array.from({ length: 9 }, (_, i) => ({ text: `O${i}`, correct: i === 0 })) },
        "between 2 and 8",
      ],
      [{ pool: "review" }, "module"],
      [{ pool: "review", moduleId: "module_1000000000000" }, "not part of this course"],
      [{ text: " " }, "required"],
      [{ kind: "essay" }, "kind"],
    ];
    for (const [override, message] of cases) {
      const response = await call(ctx, "POST", `/api/courses/${course.id}/questions`, {
        cookie: adminCookie,
        payload: { ...questionBody(1), ...override },
      });
      expect(response.statusCode, JSON.stringify(override)).toBe(400);
      expect(response.json().message.toLowerCase()).toContain(message.toLowerCase());
    }
    expect(await list()).toEqual([]);
    const learner = await quickLearner(ctx);
    const learnerCookie = await signInAs(ctx, learner);
    const byLearner = await call(ctx, "POST", `/api/courses/${course.id}/questions`, {
      cookie: learnerCookie,
      payload: questionBody(1),
    });
    expect(byLearner.statusCode).toBe(403);
    const unknown = await call(ctx, "POST", "/api/courses/nope/questions", {
      cookie: adminCookie,
      payload: questionBody(1),
    });
    expect(unknown.statusCode).toBe(404);
  });

  it("previews a CSV file row by row, then imports only its valid rows", async () => {
    const { adminCookie, course, list } = await setup();
    const header = QUESTION_CSV_COLUMNS.join(",");
    const csv = [
      header,
      `final,,single,"What is 2+2, exactly?",3,4,5,,,,,,B,,Right: 2+2=4,,,,,,,Arithmetic.`,
      `review,${course.modules[1]!.title},multiple,Pick primes,2,4,3,,,,,,"A,C",,,,,,,,,`,
      `final,,true_false,The sky is green,True,False,,,,,,,B,,,,,,,,,`,
      `final,,single,No answer marked,x,y,,,,,,,,,,,,,,,,`,
      `review,Unknown module,single,Where?,a,b,,,,,,,A,,,,,,,,,`,
      `final,,single,Bad letter,a,b,,,,,,,Z,,,,,,,,,`,
    ].join("\n");
    const preview = await call(ctx, "POST", `/api/courses/${course.id}/questions/import`, {
      cookie: adminCookie,
      payload: { csv, dryRun: true },
    });
    expect(preview.statusCode).toBe(200);
    const result = preview.json() as QuestionImportResult;
    expect(result.imported).toBe(0);
    expect(result.rows.map((r) => [r.line, r.errors.length > 0])).toEqual([
      [2, false],
      [3, false],
      [4, false],
      [5, true],
      [6, true],
      [7, true],
    ]);
    expect(result.rows[0]!.question).toMatchObject({
      text: "What is 2+2, exactly?",
      explanation: "Arithmetic.",
      options: [
        { text: "3", correct: false },
        { text: "4", correct: true, feedback: "Right: 2+2=4" },
        { text: "5", correct: false },
      ],
    });
    expect(result.rows[1]!.question).toMatchObject({ moduleId: course.modules[1]!.id });
    expect(result.rows[3]!.errors.join()).toContain("at least one");
    expect(result.rows[4]!.errors.join()).toContain(
      'no module of this course is called "Unknown module"',
    );
    expect(result.rows[5]!.errors.join()).toContain('"Z" is not an option letter');
    expect(await list()).toEqual([]);

    const imported = await call(ctx, "POST", `/api/courses/${course.id}/questions/import`, {
      cookie: adminCookie,
      payload: { csv, dryRun: false },
    });
    expect((imported.json() as QuestionImportResult).imported).toBe(3);
    expect((await list()).map((q) => [q.text, q.position])).toEqual([
      ["What is 2+2, exactly?", 0],
      ["Pick primes", 1],
      ["The sky is green", 2],
    ]);
    const missing = await call(ctx, "POST", `/api/courses/${course.id}/questions/import`, {
      cookie: adminCookie,
      payload: { csv: "pool,question\nfinal,x", dryRun: true },
    });
    expect((missing.json() as QuestionImportResult).rows[0]!.errors[0]).toContain(
      "Missing columns",
    );
  });

  it("saves exam settings with the defaults of an accredited exam, and checks them before publishing", async () => {
    const { adminCookie, course } = await setup({ draft: true });
    const initial = (
      await call(ctx, "GET", `/api/courses/${course.id}/exam-settings`, { cookie: adminCookie })
    ).json() as ExamSettings;
    expect(initial).toMatchObject({
      enabled: false,
      passMark: 70,
      maxAttempts: null,
      timeLimitMinutes: null,
      revealAnswers: "after_pass",
      reviewRequired: true,
      finalPoolSize: 0,
      checks: [],
    });
    const bad = await call(ctx, "PUT", `/api/courses/${course.id}/exam-settings`, {
      cookie: adminCookie,
      payload: { ...DEFAULT_EXAM_SETTINGS, passMark: 101 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      path: "passMark",
      message: "Pass mark must be between 1 and 100",
    });

    // A NASBA course: the floors warn, and an exam that cannot draw blocks publishing.
    await call(ctx, "PUT", `/api/courses/${course.id}/credit`, {
      cookie: adminCookie,
      payload: creditOffer([
        creditType({ name: "CPE credits", amount: 1, accreditingBody: "NASBA", claimStep: null }),
      ]),
    });
    await addQuestion(ctx, adminCookie, course.id, questionBody(1, { kind: "true_false" }));
    const settings = (await saveExamSettings(ctx, adminCookie, course.id, {
      enabled: true,
      questionCount: 3,
      passMark: 60,
    })) as ExamSettings;
    expect(settings.checks.map((c) => [c.key, c.severity])).toEqual([
      ["pool-too-small", "blocking"],
      ["cpe-final-per-credit", "warning"],
      ["cpe-pass-mark", "warning"],
      ["cpe-true-false", "warning"],
      ["cpe-review-per-credit", "warning"],
    ]);
    const blocked = await call(ctx, "PATCH", `/api/courses/${course.id}/publish`, {
      cookie: adminCookie,
    });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().message).toBe(
      "The exam draws 3 questions but the final pool has only 1.",
    );
    for (let n = 2; n <= 3; n++) await addQuestion(ctx, adminCookie, course.id, questionBody(n));
    // A credit course completed manually, with more credit than its test video supports,
    // publishes once both are confirmed.
    const published = await call(
      ctx,
      "PATCH",
      `/api/courses/${course.id}/publish?confirm=manual-completion&creditLengthReason=Reading`,
      { cookie: adminCookie },
    );
    expect(published.statusCode).toBe(200);
    // Once published, settings that could not draw are refused.
    const tooMany = await call(ctx, "PUT", `/api/courses/${course.id}/exam-settings`, {
      cookie: adminCookie,
      payload: { ...DEFAULT_EXAM_SETTINGS, enabled: true, questionCount: 4 },
    });
    expect(tooMany.statusCode).toBe(409);
  });
});
