import { describe, expect, it } from "vitest";
import { cmi5Course, launch, TestAuClient } from "../../testing/cmi5";
import { call } from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";
import { cmi5Package } from "../../testing/zips";

describe("cmi5 on the portal's clock", () => {
  let clock = new Date();
  const ctx = useTestApp({}, { clock: () => clock });

  async function launched() {
    clock = new Date();
    const setup = await cmi5Course(ctx, cmi5Package("single_au_basic_responsive.zip"));
    const response = await launch(ctx, setup, setup.learnerCookie, { auId: setup.auIds[0]! });
    expect(response.statusCode).toBe(200);
    return new TestAuClient(ctx, response.json().url);
  }

  it("a fetch URL an hour after its launch answers cmi5's error, and gives no token", async () => {
    const au = await launched();
    clock = new Date(clock.getTime() + 60 * 60 * 1000 + 1000);
    const late = await au.fetchToken();
    expect(late.statusCode).toBe(200);
    expect(late.json()["error-code"]).toBe("3");
    expect(late.json()["auth-token"]).toBeUndefined();
  });

  it("an auth token stops working a day after it was fetched", async () => {
    const au = await (await launched()).start();
    await au.sendOk("initialized");
    clock = new Date(clock.getTime() + 24 * 60 * 60 * 1000 + 1000);
    expect((await au.send(au.statement("experienced"))).statusCode).toBe(401);
    const state = await au.xapi("GET", "activities/state", {
      query: au.stateQuery("LMS.LaunchData"),
    });
    expect(state.statusCode).toBe(401);
  });

  it("in a course that asks for seat time, a satisfied module completes once the learner's time with it is met", async () => {
    clock = new Date();
    const setup = await cmi5Course(ctx, cmi5Package("single_au_basic_responsive.zip"));
    const settings = await call(ctx, "PATCH", `/api/courses/${setup.course.id}/settings`, {
      cookie: setup.adminCookie,
      payload: { completionPolicy: "verified", minSeatSeconds: 60 },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const moduleUrl = `/api/courses/${setup.course.id}/modules/${setup.moduleId}`;
    const response = await launch(ctx, setup, setup.learnerCookie, { auId: setup.auIds[0]! });
    const au = await new TestAuClient(ctx, response.json().url).start();
    const beat = () =>
      call(ctx, "POST", `${moduleUrl}/package/seat`, {
        cookie: setup.learnerCookie,
        payload: { visible: true },
      });
    expect((await beat()).statusCode).toBe(200);
    await au.sendOk("initialized");
    await au.sendOk("completed");
    let status = (
      await call(ctx, "GET", `${moduleUrl}/cmi5`, { cookie: setup.learnerCookie })
    ).json();
    expect([status.satisfied, status.moduleCompleted]).toEqual([true, false]);
    // Two beats of 30 s each: the minute is met, and the beat completes the module.
    for (let i = 0; i < 2; i++) {
      clock = new Date(clock.getTime() + 30_000);
      expect((await beat()).json().moduleCompleted).toBe(i === 1);
    }
    status = (await call(ctx, "GET", `${moduleUrl}/cmi5`, { cookie: setup.learnerCookie })).json();
    expect([status.satisfied, status.moduleCompleted]).toEqual([true, true]);
  });
});
