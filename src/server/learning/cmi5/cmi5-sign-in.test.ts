import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { certificates } from "../../credit/certificates/certificates.table";
import { cmi5Course, launch, TestAuClient } from "../../testing/cmi5";
import { call, signInAs } from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";
import { cmi5Package } from "../../testing/zips";
import { enrollments, moduleCompletions } from "../enrollments/enrollments.table";

/**
 * An AU's auth token is a second credential beside the portal's cookie: it is good only while
 * the portal sign-in that launched the AU lasts, so ending that sign-in ends what the AU may
 * read and record.
 */
describe("an AU reports only while the sign-in that launched it lasts", () => {
  const ctx = useTestApp();

  async function launched() {
    const setup = await cmi5Course(ctx, cmi5Package("single_au_basic_responsive.zip"));
    const response = await launch(ctx, setup, setup.learnerCookie, { auId: setup.auIds[0]! });
    expect(response.statusCode).toBe(200);
    return { setup, au: new TestAuClient(ctx, response.json().url) };
  }

  async function creditOf(learnerId: string) {
    const db = ctx.database.db;
    const [enrollment] = await db
      .select()
      .from(enrollments)
      .where(eq(enrollments.userId, learnerId));
    return {
      completed: enrollment!.isCompleted,
      modules: await db
        .select()
        .from(moduleCompletions)
        .where(eq(moduleCompletions.enrollmentId, enrollment!.id)),
      certificates: await db.select().from(certificates).where(eq(certificates.userId, learnerId)),
    };
  }

  it("refuses a restricted learner's AU, which then records no completion or certificate", async () => {
    const { setup, au } = await launched();
    await au.start();
    await au.sendOk("initialized");

    const restricted = await call(
      ctx,
      "PATCH",
      `/api/users/learners/${setup.learner.id}/restrict`,
      { cookie: setup.adminCookie },
    );
    expect(restricted.statusCode).toBe(200);

    const completed = await au.send(au.statement("completed"));
    expect(completed.statusCode).toBe(401);
    expect(await creditOf(setup.learner.id)).toEqual({
      completed: false,
      modules: [],
      certificates: [],
    });
  });

  it("refuses the AU once its sign-in signs out, and its fetch URL if it was not used yet", async () => {
    const { setup, au } = await launched();
    await au.start();
    const unused = await launched();

    const out = await call(ctx, "POST", "/api/auth/logout", { cookie: setup.learnerCookie });
    expect(out.statusCode).toBe(200);
    const state = await au.xapi("GET", "activities/state", {
      query: au.stateQuery("LMS.LaunchData"),
    });
    expect(state.statusCode).toBe(401);
    expect((await au.send(au.statement("initialized"))).statusCode).toBe(401);

    await call(ctx, "POST", "/api/auth/logout", { cookie: unused.setup.learnerCookie });
    const fetched = await unused.au.fetchToken();
    expect(fetched.json()).toEqual({
      "error-code": "3",
      "error-text": "This fetch URL is not valid.",
    });
  });

  it("keeps the AU of a sign-in that lasts when the learner signs out elsewhere", async () => {
    const { setup, au } = await launched();
    await au.start();
    const elsewhere = await signInAs(ctx, setup.learner);
    const out = await call(ctx, "POST", "/api/auth/logout", { cookie: elsewhere });
    expect(out.statusCode).toBe(200);

    await au.sendOk("initialized");
    await au.sendOk("completed");
    const credit = await creditOf(setup.learner.id);
    expect(credit.completed).toBe(true);
    expect(credit.modules).toHaveLength(1);
  });
});
