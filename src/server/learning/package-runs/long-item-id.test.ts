import { describe, expect, it } from "vitest";
import type { PackageLaunch } from "../../../contract";
import { createCourse, moduleId, postModule, publish } from "../../testing/courses";
import { call, enrollViaApi, quickAdmin, quickLearner, signInAs } from "../../testing/learning";
import { uploadObject } from "../../testing/uploads";
import { useWatchingTestApp } from "../../testing/watching";
import { makeZip } from "../../testing/zips";

/** 120 characters: SCORM allows far longer identifiers, and the route itself says 255. */
const LONG_ID = `item_${"x".repeat(115)}`;

const packageWithLongId = () =>
  makeZip([
    {
      name: "imsmanifest.xml",
      data: `<?xml version="1.0"?>
<manifest identifier="m" version="1"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org">
    <organization identifier="org"><title>Course</title>
      <item identifier="${LONG_ID}" identifierref="r1"><title>Lesson</title></item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="r1" type="webcontent" adlcp:scormtype="sco" href="index.html"/>
  </resources>
</manifest>`,
    },
    { name: "index.html", data: "<p>Lesson</p>" },
  ]);

describe("a package item with a long identifier", () => {
  const { ctx } = useWatchingTestApp();

  it("takes the commits of an item whose identifier the intake accepted", async () => {
    const admin = await signInAs(ctx, await quickAdmin(ctx));
    const course = await createCourse(ctx, admin);
    const path = await uploadObject(ctx, admin, { kind: "package", bytes: packageWithLongId() });
    const added = await postModule(ctx, admin, course.id, {
      id: moduleId(1),
      title: "Module 1",
      description: "",
      duration: 10,
      kind: "scorm",
      packagePath: path,
    });
    // The intake accepts the package.
    expect(added.statusCode, added.body).toBe(201);
    await publish(ctx, admin, course.id);
    const learner = await quickLearner(ctx);
    await enrollViaApi(ctx, admin, learner.id, course.id);
    const cookie = await signInAs(ctx, learner);
    const base = `/api/courses/${course.id}/modules/${moduleId(1)}/package`;
    const launched = (
      await call(ctx, "POST", `${base}/launch`, { cookie })
    ).json() as PackageLaunch;
    expect(launched.resume.itemId).toBe(LONG_ID);

    // The SCO finishes as completed, as the player sends it.
    const commit = await call(ctx, "PUT", `${base}/items/${encodeURIComponent(LONG_ID)}`, {
      cookie,
      payload: { cmi: { core: { lesson_status: "completed" } }, finish: true },
    });
    expect(commit.statusCode, commit.body).toBe(200);
    expect(commit.json()).toMatchObject({ satisfied: true, moduleCompleted: true });
  });
});
