import { describe, expect, it } from "vitest";
import { DEFAULT_EVALUATION_ITEMS, type EvaluationResults } from "../../../contract";
import { accme, dayOf, EVALUATION_ANSWERS, useCreditClaim } from "../../testing/credit-claim";
import { parseCsv } from "../../testing/csv";
import { call, completeViaApi, enrollViaApi, quickLearner, signInAs } from "../../testing/learning";
import { evaluationResponses, evaluationSubmissions } from "./evaluations.table";

describe("the evaluation", () => {
  const { ctx, clock, setup } = useCreditClaim();

  it("answers the learner's double click with the first thank-you and records one evaluation", async () => {
    const { course, learner, cookie, url } = await setup(accme({ attestationRequired: false }));
    await call(ctx, "POST", url("acknowledge"), { cookie });
    await completeViaApi(ctx, cookie, learner.id, course, 2);
    const send = (key: string) =>
      ctx.app.inject({
        method: "POST",
        url: url("evaluation"),
        headers: { cookie, "idempotency-key": key },
        payload: { answers: EVALUATION_ANSWERS },
      });
    const [first, second] = await Promise.all([
      send("evaluation-form-1"),
      send("evaluation-form-1"),
    ]);
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(second.json()).toEqual(first.json());
    expect(await ctx.database.db.select().from(evaluationSubmissions)).toHaveLength(1);
    expect(await ctx.database.db.select().from(evaluationResponses)).toHaveLength(1);
    // Sent again from another opening of the form, it is a second evaluation: refused.
    const again = await send("evaluation-form-2");
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("evaluation.already_submitted");
  });

  it("takes no evaluation a course does not ask for, recording nothing", async () => {
    const { course, learner, cookie, url } = await setup(accme({ evaluationRequired: false }));
    expect((await call(ctx, "POST", url("acknowledge"), { cookie })).statusCode).toBe(200);
    await completeViaApi(ctx, cookie, learner.id, course, 2);
    const sent = await call(ctx, "POST", url("evaluation"), {
      cookie,
      payload: { answers: EVALUATION_ANSWERS },
    });
    expect([sent.statusCode, sent.json().code]).toEqual([409, "evaluation.not_asked"]);
    expect(sent.json().message).toBe("This course has no evaluation to submit.");
    expect(await ctx.database.db.select().from(evaluationSubmissions)).toEqual([]);
    expect(await ctx.database.db.select().from(evaluationResponses)).toEqual([]);
  });

  it("keeps evaluation answers apart from who gave them, and reports them per item and as CSV", async () => {
    const { adminCookie, course, learner, cookie, url } = await setup(
      accme({ attestationRequired: false }),
    );
    const form = (await call(ctx, "GET", url("evaluation"), { cookie })).json();
    expect(form.items).toEqual(DEFAULT_EVALUATION_ITEMS);
    await call(ctx, "POST", url("acknowledge"), { cookie });
    await completeViaApi(ctx, cookie, learner.id, course, 2);
    const post = (payload: object) => call(ctx, "POST", url("evaluation"), { cookie, payload });
    for (const bad of [
      { answers: EVALUATION_ANSWERS.slice(1) },
      { answers: [...EVALUATION_ANSWERS.slice(0, 4), { itemId: "objectives", value: 2 }] },
      { answers: [{ itemId: "objectives", value: 6 }, ...EVALUATION_ANSWERS.slice(1)] },
      { answers: [{ itemId: "objectives", value: "five" }, ...EVALUATION_ANSWERS.slice(1)] },
      { answers: [...EVALUATION_ANSWERS, { itemId: "nope", value: 3 }] },
      {
        answers: [
          ...EVALUATION_ANSWERS.slice(0, 4),
          { itemId: "comments", value: "x".repeat(2001) },
        ],
      },
    ]) {
      expect((await post(bad)).statusCode, JSON.stringify(bad).slice(0, 80)).toBe(400);
    }
    expect(await ctx.database.db.select().from(evaluationSubmissions)).toEqual([]);
    expect((await post({ answers: EVALUATION_ANSWERS })).statusCode).toBe(201);

    // A second learner, with a new item added to the form meanwhile.
    const edited = await call(ctx, "PUT", url("evaluation"), {
      cookie: adminCookie,
      payload: {
        items: [
          ...DEFAULT_EVALUATION_ITEMS,
          { kind: "likert", text: "I will change my practice.", required: false },
        ],
      },
    });
    expect(edited.statusCode).toBe(200);
    const added = edited.json().items[5];
    expect(added.id).toMatch(/^item-/);
    const second = await quickLearner(ctx);
    await enrollViaApi(ctx, adminCookie, second.id, course.id);
    const secondCookie = await signInAs(ctx, second);
    await call(ctx, "POST", url("acknowledge"), { cookie: secondCookie });
    await completeViaApi(ctx, secondCookie, second.id, course, 2);
    const secondAnswers = [
      { itemId: "objectives", value: 3 },
      { itemId: "relevance", value: 4 },
      { itemId: "balance", value: 4 },
      { itemId: "faculty", value: 5 },
      { itemId: added.id, value: 4 },
    ];
    const secondPost = await call(ctx, "POST", url("evaluation"), {
      cookie: secondCookie,
      payload: { answers: secondAnswers },
    });
    expect(secondPost.statusCode).toBe(201);

    // The answers hold no learner, enrollment or day.
    const stored = await ctx.database.db.select().from(evaluationResponses);
    expect(stored).toHaveLength(2);
    const columns = Object.keys(stored[0]!).sort();
    expect(columns).toEqual([
      "answers",
      "courseId",
      "courseTitle",
      "id",
      "items",
      "month",
      "retainUntil",
    ]);
    expect(stored.every((r) => r.month === `${dayOf(clock.now()).slice(0, 7)}-01`)).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(learner.id);

    const results = (
      await call(ctx, "GET", url("evaluation/results"), { cookie: adminCookie })
    ).json() as EvaluationResults;
    expect(results.responses).toBe(2);
    const objectives = results.items.find((i) => i.id === "objectives")!;
    expect(objectives).toMatchObject({ mean: 4, distribution: [0, 0, 1, 0, 1], answered: 2 });
    expect(results.items.find((i) => i.id === "comments")!.comments).toEqual([
      "Клинические примеры были полезны",
    ]);
    expect(results.items.find((i) => i.id === added.id)!.mean).toBe(4);
    expect(JSON.stringify(results)).not.toMatch(
      new RegExp(`${learner.id}|${learner.email}|${second.id}`),
    );
    expect((await call(ctx, "GET", url("evaluation/results"), { cookie })).statusCode).toBe(403);

    const csv = await call(ctx, "GET", `${url("evaluation/results")}?format=csv`, {
      cookie: adminCookie,
    });
    expect(csv.headers["content-type"]).toContain("text/csv");
    const rows = parseCsv(csv.body.replace(/^\ufeff/, ""));
    expect(rows[0]).toEqual([
      "Item",
      "Kind",
      "Answered",
      "Mean",
      "Strongly disagree",
      "Disagree",
      "Neutral",
      "Agree",
      "Strongly agree",
      "Comment",
    ]);
    expect(rows).toContainEqual([
      "The learning objectives were met.",
      "Rating",
      "2",
      "4",
      "0",
      "0",
      "1",
      "0",
      "1",
      "",
    ]);
    expect(rows).toContainEqual([
      "Comments and suggestions",
      "Comment",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      "Клинические примеры были полезны",
    ]);
  });
});
