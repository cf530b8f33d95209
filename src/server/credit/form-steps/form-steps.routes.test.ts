import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CREDIT_MESSAGES, FORM_STEPS } from "../../../contract";
import { auditEvents } from "../../platform/audit/audit.table";
import { accme, EVALUATION_ANSWERS, STATEMENT, useCreditClaim } from "../../testing/credit-claim";
import { parseCsv } from "../../testing/csv";
import { call, completeViaApi, quickLearner, signInAs } from "../../testing/learning";
import { formStepAnswers } from "./form-steps.table";

const DEFAULT_FORM = FORM_STEPS.commitment.defaultItems.map(({ id, kind, text, required }) => ({
  id,
  kind,
  text,
  required,
}));
const ANSWERS = [
  { itemId: "change", value: "Screen every adult for hypertension at intake." },
  { itemId: "confidence", value: 4 },
];

describe("a form step (the commitment to change)", () => {
  const { ctx, setup, certificatesOf } = useCreditClaim();

  it("holds the attestation until the learner answers, takes the answers once, and gives them to the provider", async () => {
    const { adminCookie, course, learner, cookie, url, completion } = await setup();
    const step = url("steps/commitment");
    const plain = (await call(ctx, "GET", step, { cookie })).json();
    expect(plain).toEqual({
      key: "commitment",
      required: false,
      items: DEFAULT_FORM,
      answers: null,
      answeredAt: null,
    });
    const saved = await call(ctx, "PUT", step, {
      cookie: adminCookie,
      payload: { required: true, items: DEFAULT_FORM },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().required).toBe(true);
    const [edit] = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.type, "course.step_form_updated"));
    expect(edit?.details).toEqual({
      courseTitle: course.title,
      step: "commitment",
      changes: [{ field: "required", from: false, to: true }],
    });
    expect((await completion()).steps.map((s) => [s.key, s.required])).toEqual([
      ["acknowledge", true],
      ["modules", true],
      ["review", false],
      ["exam", false],
      ["evaluation", true],
      ["commitment", true],
      ["attestation", true],
      ["certificate", true],
    ]);

    const answer = (payload: object) => call(ctx, "POST", step, { cookie, payload });
    const early = await answer({ answers: ANSWERS });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(CREDIT_MESSAGES.outOfOrder("about this activity"));
    await call(ctx, "POST", url("acknowledge"), { cookie });
    await completeViaApi(ctx, cookie, learner.id, course, 2);
    const beforeEvaluation = await answer({ answers: ANSWERS });
    expect(beforeEvaluation.json().message).toBe(CREDIT_MESSAGES.outOfOrder("evaluation"));
    await call(ctx, "POST", url("evaluation"), {
      cookie,
      payload: { answers: EVALUATION_ANSWERS },
    });
    const attestEarly = await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: 2 },
    });
    expect(attestEarly.statusCode).toBe(409);
    expect(attestEarly.json().message).toBe(CREDIT_MESSAGES.outOfOrder("commitment to change"));

    for (const [bad, message] of [
      [ANSWERS.slice(1), `Answer "${DEFAULT_FORM[0]!.text}": it is required.`],
      [
        [ANSWERS[0], { itemId: "confidence", value: "very" }],
        `Rate "${DEFAULT_FORM[1]!.text}" from 1 to 5.`,
      ],
      [
        [...ANSWERS, { itemId: "gone", value: 2 }],
        "The commitment to change has changed since this page was opened: reload it and answer again.",
      ],
    ] as const) {
      const refused = await answer({ answers: bad });
      expect([refused.statusCode, refused.json().code, refused.json().message]).toEqual([
        400,
        "forms.invalid_answers",
        message,
      ]);
    }
    expect(await ctx.database.db.select().from(formStepAnswers)).toEqual([]);

    const answered = await answer({ answers: ANSWERS });
    expect([answered.statusCode, answered.json()]).toEqual([
      201,
      { message: FORM_STEPS.commitment.thanks },
    ]);
    const twice = await answer({ answers: ANSWERS });
    expect([twice.statusCode, twice.json().code]).toEqual([409, "forms.already_answered"]);
    const mine = (await call(ctx, "GET", step, { cookie })).json();
    expect(mine.answers).toEqual(ANSWERS);
    expect(mine.answeredAt).toEqual(expect.any(String));
    expect((await completion()).next).toBe("attestation");

    const attested = await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: 2 },
    });
    expect(attested.statusCode, attested.body).toBe(200);
    const [certificate] = await certificatesOf(cookie);
    expect(certificate).toBeDefined();

    // The provider's follow-up list; learners may read neither it nor change the form.
    const list = await call(ctx, "GET", `${step}/answers`, { cookie: adminCookie });
    expect(list.json()).toEqual({
      key: "commitment",
      items: DEFAULT_FORM,
      answers: [
        {
          learnerName: learner.name,
          learnerEmail: learner.email,
          answeredAt: mine.answeredAt,
          answers: ANSWERS,
        },
      ],
    });
    const csv = await call(ctx, "GET", `${step}/answers?format=csv`, { cookie: adminCookie });
    expect(csv.headers["content-disposition"]).toMatch(
      /filename="commitment-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    expect(parseCsv(csv.body.replace(/^\ufeff/, ""))).toEqual([
      ["Learner", "Email", "Answered", DEFAULT_FORM[0]!.text, DEFAULT_FORM[1]!.text],
      [learner.name, learner.email, mine.answeredAt.slice(0, 10), ANSWERS[0]!.value, "4 (Agree)"],
    ]);
    for (const [method, path] of [
      ["GET", `${step}/answers`],
      ["PUT", step],
    ] as const) {
      const refused = await call(ctx, method, path, {
        cookie,
        payload: method === "PUT" ? { required: false, items: DEFAULT_FORM } : undefined,
      });
      expect(refused.statusCode).toBe(403);
    }
  });

  it("refuses answers a course does not ask for, and leaves its completion as it was", async () => {
    const { cookie, url, completion } = await setup(accme({ attestationRequired: false }));
    const refused = await call(ctx, "POST", url("steps/commitment"), {
      cookie,
      payload: { answers: ANSWERS },
    });
    expect([refused.statusCode, refused.json().code]).toEqual([409, "forms.not_asked"]);
    expect((await completion()).steps.find((s) => s.key === "commitment")).toMatchObject({
      required: false,
      done: false,
    });
    const unknown = await call(ctx, "GET", url("steps/survey"), { cookie });
    expect(unknown.statusCode).toBe(400);
  });

  it("completes a learner held at the step, once, when the course stops asking for it", async () => {
    const { adminCookie, course, learner, cookie, url, completion } = await setup(
      accme({ attestationRequired: false }),
    );
    const step = url("steps/commitment");
    await call(ctx, "PUT", step, {
      cookie: adminCookie,
      payload: { required: true, items: DEFAULT_FORM },
    });
    await call(ctx, "POST", url("acknowledge"), { cookie });
    await completeViaApi(ctx, cookie, learner.id, course, 2);
    await call(ctx, "POST", url("evaluation"), {
      cookie,
      payload: { answers: EVALUATION_ANSWERS },
    });
    expect((await completion()).next).toBe("commitment");
    expect(await certificatesOf(cookie)).toEqual([]);

    const optional = await call(ctx, "PUT", step, {
      cookie: adminCookie,
      payload: { required: false, items: DEFAULT_FORM },
    });
    expect(optional.statusCode).toBe(200);
    await expect.poll(async () => (await completion()).isCompleted).toBe(true);
    expect(await certificatesOf(cookie)).toHaveLength(1);
    // Asked again, the step does not take back what was earned.
    await call(ctx, "PUT", step, {
      cookie: adminCookie,
      payload: { required: true, items: DEFAULT_FORM },
    });
    expect((await completion()).isCompleted).toBe(true);
    expect(await certificatesOf(cookie)).toHaveLength(1);
  });

  it("answers an unknown course 404, a learner of another course 403, and a bad form 400", async () => {
    const { adminCookie, url } = await setup();
    const step = url("steps/commitment");
    const missing = "/api/courses/no-such-course/steps/commitment";
    for (const [method, path, payload] of [
      ["GET", missing, undefined],
      ["PUT", missing, { required: true, items: DEFAULT_FORM }],
      ["GET", `${missing}/answers`, undefined],
    ] as const) {
      const response = await call(ctx, method, path, { cookie: adminCookie, payload });
      expect([response.statusCode, response.json().code]).toEqual([404, "courses.not_found"]);
    }
    const stranger = await quickLearner(ctx);
    const strangerCookie = await signInAs(ctx, stranger);
    for (const [method, payload] of [
      ["GET", undefined],
      ["POST", { answers: ANSWERS }],
    ] as const) {
      const response = await call(ctx, method, step, { cookie: strangerCookie, payload });
      expect([response.statusCode, response.json().code]).toEqual([
        403,
        "enrollments.not_enrolled",
      ]);
    }
    const empty = await call(ctx, "PUT", step, {
      cookie: adminCookie,
      payload: { required: true, items: [] },
    });
    expect([empty.statusCode, empty.json().code]).toEqual([400, "validation.invalid_body"]);
    const format = await call(ctx, "GET", `${step}/answers?format=xml`, { cookie: adminCookie });
    expect([format.statusCode, format.json().code]).toEqual([400, "validation.invalid_query"]);
    expect(await ctx.database.db.select().from(formStepAnswers)).toEqual([]);
  });
});
