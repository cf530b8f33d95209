import { describe, expect, it } from "vitest";
import { cmi5Course, launch, TestAuClient } from "../../testing/cmi5";
import { useTestApp } from "../../testing/test-app";
import { cmi5Package } from "../../testing/zips";

describe("cmi5 tokens expire", () => {
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
});
