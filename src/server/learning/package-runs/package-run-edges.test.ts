import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { PackageLaunch } from "../../../contract";
import { createCourse, moduleId, postModule, publish } from "../../testing/courses";
import { call, enrollViaApi, quickAdmin, quickLearner, signInAs } from "../../testing/learning";
import { uploadObject } from "../../testing/uploads";
import { useWatchingTestApp } from "../../testing/watching";
import { makeZip, scormZip } from "../../testing/zips";
import { packageAttempts, packageItemStates } from "./package-runs.table";

/** 120 characters: SCORM allows far longer identifiers, and the route itself says 255. */
const LONG_ID = `item_${"x".repeat(115)}`;

/** A package of one SCO under `itemId`, in SCORM 1.2 or 2004. */
const oneSco = (version: "1.2" | "2004", itemId: string) =>
  makeZip([
    {
      name: "imsmanifest.xml",
      data:
        version === "1.2"
          ? `<?xml version="1.0"?>
<manifest identifier="m" version="1"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org">
    <organization identifier="org"><title>Course</title>
      <item identifier="${itemId}" identifierref="r1"><title>Lesson</title></item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="r1" type="webcontent" adlcp:scormtype="sco" href="index.html"/>
  </resources>
</manifest>`
          : `<?xml version="1.0"?>
<manifest identifier="m" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="org">
    <organization identifier="org"><title>Course</title>
      <item identifier="${itemId}" identifierref="r1"><title>Lesson</title></item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="r1" type="webcontent" adlcp:scormType="sco" href="index.html"/>
  </resources>
</manifest>`,
    },
    { name: "index.html", data: "<p>Lesson</p>" },
  ]);

describe("a package module's run at its edges", () => {
  const { ctx } = useWatchingTestApp();

  /** A published course of one package module, a learner enrolled and launched in it. */
  async function launchedIn(bytes: Buffer) {
    const admin = await signInAs(ctx, await quickAdmin(ctx));
    const course = await createCourse(ctx, admin);
    const path = await uploadObject(ctx, admin, { kind: "package", bytes });
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
    const launch = async () =>
      (await call(ctx, "POST", `${base}/launch`, { cookie })).json() as PackageLaunch;
    const commit = (itemId: string, payload: object) =>
      call(ctx, "PUT", `${base}/items/${encodeURIComponent(itemId)}`, { cookie, payload });
    return { admin, course, learner, cookie, base, launch, commit, launched: await launch() };
  }

  it("takes the commits of an item whose identifier the intake accepted", async () => {
    const { launched, commit } = await launchedIn(oneSco("1.2", LONG_ID));
    expect(launched.resume.itemId).toBe(LONG_ID);
    // The SCO finishes as completed, as the player sends it.
    const done = await commit(LONG_ID, {
      cmi: { core: { lesson_status: "completed" } },
      finish: true,
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ satisfied: true, moduleCompleted: true });
  });

  it("a SCORM 2004 session_time of absurd size never breaks the administrator's attempts list", async () => {
    const { admin, course, learner, base, commit } = await launchedIn(oneSco("2004", "sco"));
    // 62 characters: within the 64 the data model allows for a time, and of the
    // timeinterval's form, but some 10^70 seconds: counted as SCORM 1.2's longest, 9999 hours.
    const committed = await commit("sco", {
      cmi: { session_time: `P${"9".repeat(60)}Y`, completion_status: "incomplete" },
    });
    expect(committed.statusCode, committed.body).toBe(200);
    const list = await call(ctx, "GET", `${base}/attempts`, { cookie: admin });
    const record = await call(
      ctx,
      "GET",
      `/api/admin/package-progress/${learner.id}/${course.id}`,
      {
        cookie: admin,
      },
    );
    expect({ list: list.statusCode, record: record.statusCode }, list.body).toEqual({
      list: 200,
      record: 200,
    });
  });

  it("does not carry an attempt an administrator reset into a new attempt", async () => {
    const { admin, learner, base, cookie, launch, commit, launched } = await launchedIn(scormZip());
    const itemId = launched.resume.itemId;
    const wrong = {
      attemptId: launched.attemptId,
      cmi: {
        core: { lesson_status: "failed", lesson_location: "quiz-end", score: { raw: "20" } },
        suspend_data: "answers=wrong,wrong,wrong",
      },
    };
    expect((await commit(itemId, wrong)).statusCode).toBe(200);
    const reset = await call(ctx, "POST", `${base}/attempts/${learner.id}/reset`, {
      cookie: admin,
    });
    expect(reset.statusCode, reset.body).toBe(200);

    // The SCO still open in the learner's tab autocommits its (old) data model, and its
    // player beats: both name the attempt that ended, and neither opens a new one.
    const stale = await commit(itemId, wrong);
    expect([stale.statusCode, stale.json().code]).toEqual([409, "modules.package_attempt_ended"]);
    const beat = await call(ctx, "POST", `${base}/seat`, {
      cookie,
      payload: { visible: true, attemptId: launched.attemptId },
    });
    expect([beat.statusCode, beat.json().code]).toEqual([409, "modules.package_attempt_ended"]);
    expect(await ctx.database.db.select().from(packageAttempts)).toHaveLength(1);

    // The next launch opens the next attempt with nothing reported, from the beginning.
    const next = await launch();
    const attempts = await ctx.database.db
      .select()
      .from(packageAttempts)
      .orderBy(asc(packageAttempts.number));
    const states = await ctx.database.db
      .select()
      .from(packageItemStates)
      .where(eq(packageItemStates.attemptId, attempts.at(-1)!.id));
    expect({
      next: { completion: next.status.completion, success: next.status.success },
      entry: (next.item!.cmi as { core?: { entry?: string } }).core?.entry,
      suspendData: (next.item!.cmi as { suspend_data?: string }).suspend_data,
      states: states.length,
    }).toEqual({
      next: { completion: "unknown", success: "unknown" },
      entry: "ab-initio",
      suspendData: undefined,
      states: 0,
    });
    // The content launched again commits into the new attempt.
    const fresh = await commit(itemId, { ...wrong, attemptId: next.attemptId });
    expect(fresh.statusCode, fresh.body).toBe(200);
  });
});
