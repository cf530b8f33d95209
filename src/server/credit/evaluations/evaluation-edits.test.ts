import { describe, expect, it } from "vitest";
import { DEFAULT_EVALUATION_ITEMS, type EvaluationResults } from "../../../contract";
import { accme, EVALUATION_ANSWERS, useCreditClaim } from "../../testing/credit-claim";
import { parseCsv } from "../../testing/csv";
import { call, completeViaApi } from "../../testing/learning";

const COMMENT = EVALUATION_ANSWERS[4]!.value as string;

describe("an evaluation form edited after learners answered it", () => {
  const { ctx, setup } = useCreditClaim();

  it("keeps a comment in the results when its item is turned into a rating", async () => {
    const { adminCookie, course, learner, cookie, url } = await setup(
      accme({ attestationRequired: false }),
    );
    await call(ctx, "POST", url("acknowledge"), { cookie });
    await completeViaApi(ctx, cookie, learner.id, course, 2);
    const sent = await call(ctx, "POST", url("evaluation"), {
      cookie,
      payload: { answers: EVALUATION_ANSWERS },
    });
    expect(sent.statusCode, sent.body).toBe(201);

    // The administrator's editor sends the item back with its id and the other kind.
    const edited = await call(ctx, "PUT", url("evaluation"), {
      cookie: adminCookie,
      payload: {
        items: DEFAULT_EVALUATION_ITEMS.map((item) =>
          item.id === "comments" ? { ...item, kind: "likert" } : item,
        ),
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);

    const results = (
      await call(ctx, "GET", url("evaluation/results"), { cookie: adminCookie })
    ).json() as EvaluationResults;
    expect(results.items.map((i) => [i.kind, i.answered])).toEqual([
      ["likert", 1],
      ["likert", 1],
      ["likert", 1],
      ["likert", 1],
      ["likert", 0],
      ["text", 1],
    ]);
    const csv = await call(ctx, "GET", `${url("evaluation/results")}?format=csv`, {
      cookie: adminCookie,
    });
    expect(parseCsv(csv.body.replace(/^\ufeff/, ""))).toContainEqual([
      "Comments and suggestions",
      "Comment",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      COMMENT,
    ]);
    // Another question now: the answers given to the comment stay with the comment.
    expect(edited.json().items[4].id).not.toBe("comments");
  });
});
