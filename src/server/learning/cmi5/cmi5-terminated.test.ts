import { describe, expect, it } from "vitest";
import { cmi5Course, launch, statementsOf, TestAuClient } from "../../testing/cmi5";
import { expectErrorBody } from "../../testing/errors";
import { call } from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";
import { cmi5Package } from "../../testing/zips";

/** A session ends with its terminated statement: nothing the AU sends after it counts. */
describe("an AU's session after its terminated statement", () => {
  const ctx = useTestApp();

  it("refuses a batch that sends anything after terminated, storing none of it", async () => {
    const setup = await cmi5Course(ctx, cmi5Package("single_au_basic_responsive.zip"));
    const launched = await launch(ctx, setup, setup.learnerCookie, { auId: setup.auIds[0]! });
    const au = await new TestAuClient(ctx, launched.json().url).start();
    await au.sendOk("initialized");
    const before = await statementsOf(ctx, setup.adminCookie, au.registration);

    for (const late of [au.statement("completed"), au.statement("experienced")]) {
      const batch = await au.xapi("POST", "statements", {
        body: [au.statement("terminated"), late],
      });
      expect([batch.statusCode, expectErrorBody(batch).code]).toEqual([
        403,
        "cmi5.statement_refused",
      ]);
    }
    expect(await statementsOf(ctx, setup.adminCookie, au.registration)).toHaveLength(before.length);
    const status = await call(
      ctx,
      "GET",
      `/api/courses/${setup.course.id}/modules/${setup.moduleId}/cmi5`,
      { cookie: setup.learnerCookie },
    );
    expect(status.json()).toMatchObject({ satisfied: false, moduleCompleted: false });
    expect(status.json().aus[0]).toMatchObject({ completed: false });

    // Completed, then terminated: the session ends as it should, and the module completes.
    const done = await au.xapi("POST", "statements", {
      body: [au.statement("completed"), au.statement("terminated")],
    });
    expect(done.statusCode, done.body).toBe(200);
    const after = await call(
      ctx,
      "GET",
      `/api/courses/${setup.course.id}/modules/${setup.moduleId}/cmi5`,
      { cookie: setup.learnerCookie },
    );
    expect(after.json()).toMatchObject({ satisfied: true, moduleCompleted: true });
  });
});
