import { describe, expect, it } from "vitest";
import { createCourse, moduleId, postModule, publish } from "../../testing/courses";
import { call, enrollViaApi, quickAdmin, quickLearner, signInAs } from "../../testing/learning";
import { uploadObject } from "../../testing/uploads";
import { useWatchingTestApp } from "../../testing/watching";
import { makeZip } from "../../testing/zips";

/** A SCORM 2004 package of one SCO. */
const scorm2004 = () =>
  makeZip([
    {
      name: "imsmanifest.xml",
      data: `<?xml version="1.0"?>
<manifest identifier="m" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="org">
    <organization identifier="org"><title>Course</title>
      <item identifier="sco" identifierref="r1"><title>Lesson</title></item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="r1" type="webcontent" adlcp:scormType="sco" href="index.html"/>
  </resources>
</manifest>`,
    },
    { name: "index.html", data: "<p>Lesson</p>" },
  ]);

describe("a SCO's reported time", () => {
  const { ctx } = useWatchingTestApp();

  it("a SCORM 2004 session_time of absurd size never breaks the administrator's attempts list", async () => {
    const admin = await signInAs(ctx, await quickAdmin(ctx));
    const course = await createCourse(ctx, admin);
    const path = await uploadObject(ctx, admin, { kind: "package", bytes: scorm2004() });
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
    expect((await call(ctx, "POST", `${base}/launch`, { cookie })).statusCode).toBe(200);

    // 62 characters: within the 64 the data model allows for a time, and of the
    // timeinterval's form, but some 10^70 seconds.
    const commit = await call(ctx, "PUT", `${base}/items/sco`, {
      cookie,
      payload: { cmi: { session_time: `P${"9".repeat(60)}Y`, completion_status: "incomplete" } },
    });

    // The administrator's list of the module's attempts, and the learner's record.
    const list = await call(ctx, "GET", `${base}/attempts`, { cookie: admin });
    const record = await call(
      ctx,
      "GET",
      `/api/admin/package-progress/${learner.id}/${course.id}`,
      {
        cookie: admin,
      },
    );
    // Refused (400) or kept within bounds: either way the administrator's pages answer.
    expect([200, 400]).toContain(commit.statusCode);
    expect({ list: list.statusCode, record: record.statusCode }, list.body).toEqual({
      list: 200,
      record: 200,
    });
  });
});
