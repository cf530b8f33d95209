import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { PackageLaunch } from "../../../contract";
import { createCourse, moduleId, postModule, publish } from "../../testing/courses";
import { call, enrollViaApi, quickAdmin, quickLearner, signInAs } from "../../testing/learning";
import { uploadObject } from "../../testing/uploads";
import { useWatchingTestApp } from "../../testing/watching";
import { scormZip } from "../../testing/zips";
import { packageAttempts, packageItemStates } from "./package-runs.table";

describe("a SCO's commit after an administrator ended its attempt", () => {
  const { ctx } = useWatchingTestApp();

  it("does not carry the ended attempt's data model into a new attempt", async () => {
    const admin = await signInAs(ctx, await quickAdmin(ctx));
    const course = await createCourse(ctx, admin);
    const path = await uploadObject(ctx, admin, { kind: "package", bytes: scormZip() });
    const added = await postModule(ctx, admin, course.id, {
      id: moduleId(1),
      title: "Module 1",
      description: "",
      duration: 10,
      kind: "scorm",
      packagePath: path,
    });
    expect(added.statusCode, added.body).toBe(201);
    await publish(ctx, admin, course.id);
    const learner = await quickLearner(ctx);
    await enrollViaApi(ctx, admin, learner.id, course.id);
    const cookie = await signInAs(ctx, learner);
    const base = `/api/courses/${course.id}/modules/${moduleId(1)}/package`;

    const launched = (
      await call(ctx, "POST", `${base}/launch`, { cookie })
    ).json() as PackageLaunch;
    const itemId = launched.resume.itemId;
    const wrong = {
      attemptId: launched.attemptId,
      cmi: {
        core: { lesson_status: "failed", lesson_location: "quiz-end", score: { raw: "20" } },
        suspend_data: "answers=wrong,wrong,wrong",
      },
    };
    expect(
      (await call(ctx, "PUT", `${base}/items/${itemId}`, { cookie, payload: wrong })).statusCode,
    ).toBe(200);

    // The administrator resets the attempt so the learner can take the test again.
    const reset = await call(ctx, "POST", `${base}/attempts/${learner.id}/reset`, {
      cookie: admin,
    });
    expect(reset.statusCode, reset.body).toBe(200);

    // The SCO still open in the learner's tab autocommits its (old) data model, and its
    // player beats: both name the attempt that ended, and neither opens a new one.
    const stale = await call(ctx, "PUT", `${base}/items/${itemId}`, { cookie, payload: wrong });
    expect(stale.json().code).toBe("modules.package_attempt_ended");
    const beat = await call(ctx, "POST", `${base}/seat`, {
      cookie,
      payload: { visible: true, attemptId: launched.attemptId },
    });
    expect([beat.statusCode, beat.json().code]).toEqual([409, "modules.package_attempt_ended"]);
    expect(await ctx.database.db.select().from(packageAttempts)).toHaveLength(1);

    // The learner's next launch: docs/packages.md, "The learner's next launch opens the next
    // attempt (number + 1) with nothing reported, and the content starts from its beginning."
    const next = (await call(ctx, "POST", `${base}/launch`, { cookie })).json() as PackageLaunch;
    const attempts = await ctx.database.db
      .select()
      .from(packageAttempts)
      .orderBy(asc(packageAttempts.number));
    const states = await ctx.database.db
      .select()
      .from(packageItemStates)
      .where(eq(packageItemStates.attemptId, attempts.at(-1)!.id));
    expect({
      staleRefused: stale.statusCode >= 400 && stale.statusCode < 500,
      nextAttempt: { completion: next.status.completion, success: next.status.success },
      entry: (next.item!.cmi as { core?: { entry?: string } }).core?.entry,
      suspendData: (next.item!.cmi as { suspend_data?: string }).suspend_data,
      newAttemptStates: states.length,
    }).toEqual({
      staleRefused: true,
      nextAttempt: { completion: "unknown", success: "unknown" },
      entry: "ab-initio",
      suspendData: undefined,
      newAttemptStates: 0,
    });
    // The content launched again commits into the new attempt.
    const fresh = await call(ctx, "PUT", `${base}/items/${itemId}`, {
      cookie,
      payload: { ...wrong, attemptId: next.attemptId },
    });
    expect(fresh.statusCode, fresh.body).toBe(200);
  });
});
