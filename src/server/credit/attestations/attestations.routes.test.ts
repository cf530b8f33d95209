import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CREDIT_MESSAGES } from "../../../contract";
import { auditEvents } from "../../platform/audit/audit.table";
import {
  accme,
  creditOffer,
  creditType,
  EVALUATION_ANSWERS,
  STATEMENT,
  useCreditClaim,
} from "../../testing/credit-claim";
import { call, completeViaApi, postProgress } from "../../testing/learning";
import { attestations } from "./attestations.table";

describe("the attestation and the credit claimed", () => {
  const { ctx, clock, setup, certificatesOf } = useCreditClaim();

  it("takes the steps only in the fixed order, then issues a certificate with the credit claimed", async () => {
    const { course, learner, cookie, url, completion, types: offered } = await setup();
    expect((await completion()).next).toBe("acknowledge");
    expect((await completion()).steps.map((s) => [s.key, s.required])).toEqual([
      ["acknowledge", true],
      ["modules", true],
      ["review", false],
      ["exam", false],
      ["evaluation", true],
      ["commitment", false],
      ["attestation", true],
      ["certificate", true],
    ]);

    // Module 1 stays locked until the acknowledgement.
    const early = await postProgress(ctx, cookie, {
      userId: learner.id,
      courseId: course.id,
      moduleId: course.modules[0]!.id,
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(CREDIT_MESSAGES.acknowledgeFirst);
    const evaluateEarly = await call(ctx, "POST", url("evaluation"), {
      cookie,
      payload: { answers: EVALUATION_ANSWERS },
    });
    expect(evaluateEarly.statusCode).toBe(409);
    const attestEarly = await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: 1.75 },
    });
    expect(attestEarly.statusCode).toBe(409);

    const ack = await call(ctx, "POST", url("acknowledge"), { cookie });
    expect(ack.statusCode).toBe(200);
    expect(ack.json().acknowledgedAt).toBe(clock.now().toISOString());
    // Asking again answers the first time.
    expect((await call(ctx, "POST", url("acknowledge"), { cookie })).json()).toEqual(ack.json());
    expect((await completion()).next).toBe("modules");

    // The evaluation waits for the modules; the attestation for the evaluation.
    await completeViaApi(ctx, cookie, learner.id, course, 1);
    const stillEarly = await call(ctx, "POST", url("evaluation"), {
      cookie,
      payload: { answers: EVALUATION_ANSWERS },
    });
    expect(stillEarly.statusCode).toBe(409);
    expect(stillEarly.json().message).toBe(CREDIT_MESSAGES.outOfOrder("modules"));
    await postProgress(ctx, cookie, {
      userId: learner.id,
      courseId: course.id,
      moduleId: course.modules[1]!.id,
    });
    expect((await completion()).next).toBe("evaluation");
    const attestBeforeEvaluation = await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: 1.75 },
    });
    expect(attestBeforeEvaluation.statusCode).toBe(409);
    expect(attestBeforeEvaluation.json().message).toBe(CREDIT_MESSAGES.outOfOrder("evaluation"));
    expect(await certificatesOf(cookie)).toEqual([]);

    const evaluated = await call(ctx, "POST", url("evaluation"), {
      cookie,
      payload: { answers: EVALUATION_ANSWERS },
    });
    expect(evaluated.statusCode, evaluated.body).toBe(201);
    const again = await call(ctx, "POST", url("evaluation"), {
      cookie,
      payload: { answers: EVALUATION_ANSWERS },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(CREDIT_MESSAGES.evaluationDone);
    expect((await call(ctx, "GET", url("evaluation"), { cookie })).json().submitted).toBe(true);
    expect((await completion()).next).toBe("attestation");
    expect(await certificatesOf(cookie)).toEqual([]);

    const attested = await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: 1.75 },
    });
    expect(attested.statusCode, attested.body).toBe(200);
    expect(attested.json()).toEqual({
      attestedAt: clock.now().toISOString(),
      creditsClaimed: 1.75,
      credits: [
        {
          creditTypeId: offered[0]!.id,
          catalogueTypeId: expect.any(String),
          name: "AMA PRA Category 1 Credit™",
          singularName: "AMA PRA Category 1 Credit™",
          amount: 1.75,
          text: "1.75 AMA PRA Category 1 Credit™",
          accreditingBody: "ACCME",
          providerNumber: null,
        },
      ],
    });
    // The learner's own repeat answers as the first did; another claim is refused.
    const repeated = await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: 1.75 },
    });
    expect([repeated.statusCode, repeated.json()]).toEqual([200, attested.json()]);
    const another = await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: 1 },
    });
    expect(another.statusCode).toBe(409);
    expect(another.json().message).toBe(CREDIT_MESSAGES.attestationDone);

    const done = await completion();
    expect(done.next).toBeNull();
    expect(done.isCompleted).toBe(true);
    expect(done.steps.filter((s) => s.required).every((s) => s.done && s.doneAt)).toBe(true);
    const [certificate] = await certificatesOf(cookie);
    expect(certificate!.learnerName).toBe("Анна Иванова");
    expect(certificate!.credit).toMatchObject({
      creditsClaimed: 1.75,
      accreditationStatement: creditType().accreditationStatement,
      attestedAt: clock.now().toISOString(),
    });

    const types = (
      await ctx.database.db
        .select({ type: auditEvents.type, details: auditEvents.details })
        .from(auditEvents)
        .where(eq(auditEvents.learnerId, learner.id))
        // Written order: the chain's seq may not be given yet (the linker runs after).
        .orderBy(auditEvents.id)
    ).map((e) => e.type);
    expect(types).toEqual([
      "enrollment.created",
      "activity.acknowledged",
      "module.completed",
      "module.completed",
      "evaluation.submitted",
      "attestation.signed",
      "course.completed",
      "certificate.issued",
    ]);
    const [signed] = await ctx.database.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.type, "attestation.signed"));
    expect(signed!.details).toMatchObject({
      statement: STATEMENT,
      creditsClaimed: 1.75,
      designatedCredits: 2,
      ip: "127.0.0.1",
    });
  });

  it("holds claims to the designated credit and its steps, and the statement to its exact text", async () => {
    const { learner, course, cookie, url } = await setup(accme({ evaluationRequired: false }));
    await call(ctx, "POST", url("acknowledge"), { cookie });
    await completeViaApi(ctx, cookie, learner.id, course, 2);
    const attest = (payload: object) => call(ctx, "POST", url("attest"), { cookie, payload });
    for (const [claim, code, message] of [
      [
        2.25,
        "attestation.claim_too_high",
        CREDIT_MESSAGES.claimTooHigh(2, "AMA PRA Category 1 Credit™"),
      ],
      [
        1.3,
        "attestation.claim_off_step",
        CREDIT_MESSAGES.claimOffStep(0.25, "AMA PRA Category 1 Credit™"),
      ],
      [null, "attestation.claim_required", CREDIT_MESSAGES.claimNeeded],
      [0, "validation.invalid_body", "Credits claimed must be greater than 0"],
      [-1, "validation.invalid_body", "Credits claimed must be greater than 0"],
      [1.251, "validation.invalid_body", "Credits claimed can have at most 2 decimals"],
    ] as const) {
      const refused = await attest({ statement: STATEMENT, creditsClaimed: claim });
      expect(refused.statusCode, String(claim)).toBe(400);
      expect(refused.json()).toMatchObject({ code, message });
    }
    const changed = await attest({ statement: `${STATEMENT} `, creditsClaimed: 1 });
    expect(changed.json().message).toBe(CREDIT_MESSAGES.statementChanged);
    expect((await attest({ statement: STATEMENT, creditsClaimed: "2" })).statusCode).toBe(400);
    expect((await attest({ creditsClaimed: 2 })).statusCode).toBe(400);
    expect(await ctx.database.db.select().from(attestations)).toEqual([]);

    expect((await attest({ statement: STATEMENT, creditsClaimed: 2 })).statusCode).toBe(200);
  });

  it("awards the designated credit when the course has no partial credit", async () => {
    const { learner, course, cookie, url } = await setup(
      accme({ evaluationRequired: false, acknowledgementRequired: false }),
      2,
      creditOffer([creditType({ claimStep: null })]),
    );
    await completeViaApi(ctx, cookie, learner.id, course, 2);
    const partial = await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: 1 },
    });
    expect(partial.json().message).toBe(CREDIT_MESSAGES.noPartialCredit);
    const whole = await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: null },
    });
    expect(whole.json().creditsClaimed).toBe(2);
    expect((await certificatesOf(cookie))[0]!.credit!.creditsClaimed).toBe(2);
  });
});
