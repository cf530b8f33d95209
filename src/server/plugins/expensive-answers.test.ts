import fastifyRateLimit from "@fastify/rate-limit";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { MESSAGES } from "../../contract";
import { quickLearner, signInAs } from "../testing/learning";
import { useTestApp } from "../testing/test-app";
import { registerErrorHandler } from "./errors";
import { EXPENSIVE_ANSWERS, registerExpensiveAnswers } from "./expensive-answers";

describe("expensive answers in flight", () => {
  it("works on at most two of one user's at a time, and frees the place when one ends", async () => {
    const app = Fastify();
    registerErrorHandler(app);
    await app.register(fastifyRateLimit, { global: false });
    registerExpensiveAnswers(app);
    let entered = 0;
    let bothEntered!: () => void;
    const inHandler = new Promise<void>((resolve) => (bothEntered = resolve));
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    app.get("/report", { config: { expensive: true } }, async () => {
      entered += 1;
      if (entered === EXPENSIVE_ANSWERS.inFlight) bothEntered();
      await gate;
      return { ok: true };
    });
    await app.ready();
    const running = Array.from({ length: EXPENSIVE_ANSWERS.inFlight }, () =>
      app.inject({ method: "GET", url: "/report" }),
    );
    await inHandler;
    const third = await app.inject({ method: "GET", url: "/report" });
    expect(third.statusCode).toBe(429);
    expect(third.json()).toEqual({ message: MESSAGES.tooManyDownloads });
    finish();
    for (const answer of await Promise.all(running)) expect(answer.statusCode).toBe(200);
    expect((await app.inject({ method: "GET", url: "/report" })).statusCode).toBe(200);
    await app.close();
  });
});

describe("expensive answers per user", () => {
  const ctx = useTestApp();

  it("bounds one learner's flood of PDFs, and serves others as usual", async () => {
    const flooder = await quickLearner(ctx);
    const flooderCookie = await signInAs(ctx, flooder);
    const other = await quickLearner(ctx);
    const otherCookie = await signInAs(ctx, other);
    const pdf = () =>
      ctx.app.inject({
        method: "GET",
        url: `/api/learners/${flooder.id}/transcript.pdf`,
        headers: { cookie: flooderCookie },
      });
    const me = () =>
      ctx.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie: otherCookie } });

    const flood = await Promise.all([
      ...Array.from({ length: 150 }, pdf),
      ...Array.from({ length: 20 }, me),
    ]);
    const pdfs = flood.slice(0, 150);
    const served = pdfs.filter((r) => r.statusCode === 200);
    const refused = pdfs.filter((r) => r.statusCode === 429);
    expect(served.length + refused.length).toBe(150);
    // However the machine schedules them, the per-minute budget bounds what is worked on.
    expect(served.length).toBeLessThanOrEqual(EXPENSIVE_ANSWERS.perMinute);
    expect(served.length).toBeGreaterThan(0);
    expect(served[0]!.headers["content-type"]).toBe("application/pdf");
    expect(refused[0]!.json()).toEqual({ message: MESSAGES.tooManyDownloads });
    expect(Number(refused[0]!.headers["retry-after"])).toBeGreaterThan(0);
    for (const answer of flood.slice(150)) expect(answer.statusCode).toBe(200);

    // Once they are done, the learner can download again, one after another, up to the
    // per-minute budget.
    const statuses: number[] = [];
    for (let i = served.length; i < EXPENSIVE_ANSWERS.perMinute + 1; i++) {
      statuses.push((await pdf()).statusCode);
    }
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // The other learner's own transcript is not held back by it.
    const theirs = await ctx.app.inject({
      method: "GET",
      url: `/api/learners/${other.id}/transcript.pdf`,
      headers: { cookie: otherCookie },
    });
    expect(theirs.statusCode).toBe(200);
  });
});
