import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { FORM_STEPS } from "../../../contract";
import { accme, EVALUATION_ANSWERS, useCreditClaim } from "../../testing/credit-claim";
import { parseCsv } from "../../testing/csv";
import { call, completeViaApi } from "../../testing/learning";
import { formStepAnswers } from "./form-steps.table";

const DEFAULT_FORM = FORM_STEPS.commitment.defaultItems.map(({ id, kind, text, required }) => ({
  id,
  kind,
  text,
  required,
}));
const COMMITMENT = "Screen every adult for hypertension at intake.";
const ANSWERS = [
  { itemId: "change", value: COMMITMENT },
  { itemId: "confidence", value: 4 },
];

describe("a learner's answers to a form step, as a credit record", () => {
  const { ctx, setup } = useCreditClaim();

  async function answered() {
    const made = await setup(accme({ attestationRequired: false }));
    const { adminCookie, course, learner, cookie, url } = made;
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
    const sent = await call(ctx, "POST", step, { cookie, payload: { answers: ANSWERS } });
    expect(sent.statusCode, sent.body).toBe(201);
    return { ...made, step };
  }

  it("is neither rewritten nor deleted before the course's retention runs out", async () => {
    await answered();
    const { db } = ctx.database;
    await expect(
      db.execute(sql`update form_step_answers set answers = '[]'::jsonb`),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`update form_step_answers set learner_name = 'X'`),
    ).rejects.toThrow();
    await expect(db.execute(sql`delete from form_step_answers`)).rejects.toThrow();
    const [kept] = await db.select().from(formStepAnswers);
    expect(kept!.answers).toEqual(ANSWERS);
  });

  it("keeps every answer in the provider's export after the form's items change", async () => {
    const { adminCookie, learner, step } = await answered();
    const edited = await call(ctx, "PUT", step, {
      cookie: adminCookie,
      payload: {
        required: true,
        items: [
          { kind: "text", text: "Which change did you make?", required: true },
          DEFAULT_FORM[1],
        ],
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    // The learner's commitment was to the item removed since: it stays in the list, last.
    const list = await call(ctx, "GET", `${step}/answers`, { cookie: adminCookie });
    expect(list.json().items.map((i: { text: string }) => i.text)).toEqual([
      "Which change did you make?",
      DEFAULT_FORM[1]!.text,
      DEFAULT_FORM[0]!.text,
    ]);
    const csv = await call(ctx, "GET", `${step}/answers?format=csv`, { cookie: adminCookie });
    const [header, row] = parseCsv(csv.body.replace(/^\ufeff/, ""));
    expect(header!.slice(3)).toEqual([
      "Which change did you make?",
      DEFAULT_FORM[1]!.text,
      DEFAULT_FORM[0]!.text,
    ]);
    expect(row!.slice(3)).toEqual(["", "4 (Agree)", COMMITMENT]);
    expect(row![0]).toBe(learner.name);
  });
});
