import { existsSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { enrollments, moduleCompletions } from "../../learning/enrollments/enrollments.table";
import { objects } from "../../platform/objects/objects.table";
import {
  addModule,
  completeModule,
  createCourse,
  enroll,
  moduleId,
  postCourse,
  postModule,
  publish,
  snapshot,
  validModule,
} from "../../testing/courses";
import { expectErrorBody, expectFieldRefused } from "../../testing/errors";
import { buildAdmin, buildLearner, signIn } from "../../testing/factories";
import {
  download,
  isStored,
  objectIdOf,
  STORE_KINDS,
  type StoreTestContext,
  useTestAppWithStore,
} from "../../testing/object-stores";
import { fixture, requestUpload, uploadObject } from "../../testing/uploads";
import { modules } from "./courses.table";

/** An object path that looks right but that this portal never issued. */
const UNKNOWN_OBJECT = "/objects/uploads/AAAAAAAAAAAAAAAAAAAAAAAA";

describe.each(STORE_KINDS)("courses and modules (%s object store)", (storeKind) => {
  const ctx: StoreTestContext = useTestAppWithStore(storeKind);

  async function adminCookie() {
    return signIn(ctx, await buildAdmin(ctx));
  }

  async function courseWithVideo(cookie: string) {
    const course = await createCourse(ctx, cookie);
    const video = await uploadObject(ctx, cookie, { kind: "video" });
    return { course, video };
  }

  function getCourse(cookie: string | undefined, id: string) {
    return ctx.app.inject({
      method: "GET",
      url: `/api/courses/${id}`,
      headers: cookie ? { cookie } : {},
    });
  }

  /** A refused request answers with the status and a message naming the field. */
  function expectRefused(
    response: { statusCode: number; json(): unknown },
    status: number,
    field?: string,
    label?: string,
  ) {
    expect(response.statusCode, label).toBe(status);
    expectErrorBody(response, label);
    if (field) expectFieldRefused(response, field);
  }

  describe("creating a course", () => {
    it("creates a course with an uploaded thumbnail, owned by the signed-in admin", async () => {
      const admin = await buildAdmin(ctx);
      const cookie = await signIn(ctx, admin);
      const thumbnail = await uploadObject(ctx, cookie, { kind: "thumbnail" });
      const created = await postCourse(ctx, cookie, { thumbnail });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({
        title: "Intro to SQL",
        description: "Tables, joins and indexes.",
        category: "Database",
        duration: 3,
        thumbnail,
        // The body's createdBy is ignored: the session decides who created it.
        createdBy: admin.id,
        isPublished: false,
        modules: [],
      });
      const list = await ctx.app.inject({
        method: "GET",
        url: "/api/courses",
        headers: { cookie },
      });
      expect(list.json()).toHaveLength(1);
      const image = await download(ctx, thumbnail, { cookie });
      expect(image.statusCode).toBe(200);
      expect(image.headers["content-type"]).toBe("image/png");
      expect(image.body.equals(fixture("sample-thumbnail.png"))).toBe(true);
    });

    it("accepts each of the four categories, the minimum duration and no thumbnail", async () => {
      const cookie = await adminCookie();
      for (const category of ["Development", "Database", "Mobile", "Design"]) {
        const created = await postCourse(ctx, cookie, { category, duration: 1, thumbnail: null });
        expect(created.statusCode).toBe(201);
        expect(created.json()).toMatchObject({ category, duration: 1, thumbnail: null });
      }
      const minimal = await postCourse(ctx, cookie, {
        thumbnail: undefined,
        createdBy: undefined,
        modules: undefined,
      });
      expect(minimal.statusCode).toBe(201);
    });

    const invalidCourses: [string, Record<string, unknown>, string][] = [
      ["title missing", { title: undefined }, "title"],
      ["title blank", { title: "   " }, "title"],
      ["title not text", { title: 42 }, "title"],
      ["description missing", { description: undefined }, "description"],
      ["description blank", { description: " \n " }, "description"],
      ["category missing", { category: undefined }, "category"],
      ["category not one of the four", { category: "Cooking" }, "category"],
      ["category in the wrong case", { category: "database" }, "category"],
      ["duration missing", { duration: undefined }, "duration"],
      ["duration null", { duration: null }, "duration"],
      ["duration as text", { duration: "3" }, "duration"],
      ["duration zero", { duration: 0 }, "duration"],
      ["duration negative", { duration: -2 }, "duration"],
      ["duration not whole hours", { duration: 1.5 }, "duration"],
      ["thumbnail not an object path", { thumbnail: "https://evil.example/x.png" }, "thumbnail"],
      ["thumbnail traversing", { thumbnail: "/objects/uploads/../../etc/passwd" }, "thumbnail"],
      ["thumbnail never uploaded", { thumbnail: UNKNOWN_OBJECT }, "thumbnail"],
      ["modules given", { modules: [{ id: moduleId(1) }] }, "modules"],
    ];

    it("refuses every invalid course with 400 naming the field, and changes nothing", async () => {
      const cookie = await adminCookie();
      const before = await snapshot(ctx);
      for (const [name, overrides, field] of invalidCourses) {
        expectRefused(await postCourse(ctx, cookie, overrides), 400, field, name);
      }
      expect(await snapshot(ctx)).toEqual(before);
    });

    it("refuses a thumbnail that is a video or an unfinished upload", async () => {
      const cookie = await adminCookie();
      const video = await uploadObject(ctx, cookie, { kind: "video" });
      const requested = await requestUpload(ctx, cookie, {
        kind: "thumbnail",
        contentType: "image/png",
        size: 100,
      });
      const pending = `/objects/uploads/${requested.json().uploadURL.split("?")[0].split("/").pop()}`;
      const before = await snapshot(ctx);
      expectRefused(await postCourse(ctx, cookie, { thumbnail: video }), 400, "thumbnail");
      expectRefused(await postCourse(ctx, cookie, { thumbnail: pending }), 400, "thumbnail");
      expect(await snapshot(ctx)).toEqual(before);
    });

    it("refuses a body that is not JSON or missing", async () => {
      const cookie = await adminCookie();
      const empty = await ctx.app.inject({
        method: "POST",
        url: "/api/courses",
        headers: { cookie },
      });
      expectRefused(empty, 400);
      const form = await ctx.app.inject({
        method: "POST",
        url: "/api/courses",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        payload: "title=x&description=y&category=Design&duration=2",
      });
      expect(form.statusCode).toBe(415);
      expect((await snapshot(ctx)).courses).toEqual([]);
    });
  });

  describe("module form", () => {
    const invalidModules: [string, Record<string, unknown>, string][] = [
      ["id missing", { id: undefined }, "id"],
      ["id without the module_ prefix", { id: "1700000000001" }, "id"],
      ["id with another prefix", { id: "mod_1700000000001" }, "id"],
      ["id not a timestamp", { id: "module_abc" }, "id"],
      ["id too short for a timestamp", { id: "module_12" }, "id"],
      ["id with a path in it", { id: "module_1700000000001/../x" }, "id"],
      ["title missing", { title: undefined }, "title"],
      ["title blank", { title: "  " }, "title"],
      ["duration missing", { duration: undefined }, "duration"],
      ["duration as text", { duration: "5" }, "duration"],
      ["duration zero", { duration: 0 }, "duration"],
      ["duration not whole minutes", { duration: 2.5 }, "duration"],
      ["videoUrl missing", { videoUrl: undefined }, "videoUrl"],
      ["videoUrl empty", { videoUrl: "" }, "videoUrl"],
      ["videoUrl an outside address", { videoUrl: "https://cdn.example/v.mp4" }, "videoUrl"],
      ["videoUrl traversing", { videoUrl: "/objects/uploads/../../package.json" }, "videoUrl"],
      ["videoUrl never uploaded", { videoUrl: UNKNOWN_OBJECT }, "videoUrl"],
      ["kind unknown", { kind: "audio" }, "kind"],
      ["kind a package without one", { kind: "scorm" }, "packagePath"],
      [
        "packagePath an outside address",
        { kind: "cmi5", packagePath: "https://x.example/c.zip" },
        "packagePath",
      ],
      ["packagePath never uploaded", { kind: "scorm", packagePath: UNKNOWN_OBJECT }, "packagePath"],
    ];

    it("refuses every invalid module with 400 naming the field, and changes nothing", async () => {
      const cookie = await adminCookie();
      const { course, video } = await courseWithVideo(cookie);
      const before = await snapshot(ctx);
      for (const [name, overrides, field] of invalidModules) {
        const response = await postModule(ctx, cookie, course.id, {
          ...validModule(video),
          ...overrides,
        });
        expectRefused(response, 400, field, name);
      }
      expect(await snapshot(ctx)).toEqual(before);
    });

    it("refuses a thumbnail, a pending upload or a refused upload as the video", async () => {
      const cookie = await adminCookie();
      const { course } = await courseWithVideo(cookie);
      const thumbnail = await uploadObject(ctx, cookie, { kind: "thumbnail" });
      const requested = await requestUpload(ctx, cookie, {
        kind: "video",
        contentType: "video/mp4",
        size: 1000,
      });
      const pendingId = requested.json().uploadURL.split("?")[0].split("/").pop();
      const before = await snapshot(ctx);
      for (const videoUrl of [thumbnail, `/objects/uploads/${pendingId}`]) {
        const response = await postModule(ctx, cookie, course.id, validModule(videoUrl));
        expectRefused(response, 400, "videoUrl");
      }
      expect(await snapshot(ctx)).toEqual(before);
    });

    it("takes a video module with or without its kind, and says its kind", async () => {
      const cookie = await adminCookie();
      const { course, video } = await courseWithVideo(cookie);
      const plain = await addModule(ctx, cookie, course.id, validModule(video, 1));
      const named = await addModule(ctx, cookie, course.id, {
        ...validModule(video, 2),
        kind: "video",
      });
      for (const module of [plain, named]) {
        expect(module).toMatchObject({ kind: "video", videoUrl: video });
        expect(module).not.toHaveProperty("package");
      }
      const shown = (await getCourse(cookie, course.id)).json();
      expect(shown.modules.map((m: { kind: string }) => m.kind)).toEqual(["video", "video"]);
    });

    it("accepts a module without a description", async () => {
      const cookie = await adminCookie();
      const { course, video } = await courseWithVideo(cookie);
      for (const [n, description] of [undefined, null, ""].entries()) {
        const added = await postModule(ctx, cookie, course.id, {
          ...validModule(video, n + 1),
          description,
        });
        expect(added.statusCode).toBe(201);
      }
      const withText = await addModule(ctx, cookie, course.id, {
        ...validModule(video, 9),
        description: "Joins explained",
      });
      expect(withText.description).toBe("Joins explained");
    });

    it("keeps module ids unique within a course (409) but not across courses", async () => {
      const cookie = await adminCookie();
      const { course, video } = await courseWithVideo(cookie);
      await addModule(ctx, cookie, course.id, validModule(video, 1));
      const before = await snapshot(ctx);
      const duplicate = await postModule(ctx, cookie, course.id, {
        ...validModule(video, 1),
        title: "Another title",
      });
      expectRefused(duplicate, 409);
      expect(await snapshot(ctx)).toEqual(before);
      const other = await createCourse(ctx, cookie, { title: "Other" });
      const sameIdElsewhere = await postModule(ctx, cookie, other.id, validModule(video, 1));
      expect(sameIdElsewhere.statusCode).toBe(201);
    });

    it("answers 404 for a module of a course that does not exist", async () => {
      const cookie = await adminCookie();
      const video = await uploadObject(ctx, cookie, { kind: "video" });
      const before = await snapshot(ctx);
      expectRefused(await postModule(ctx, cookie, "no-such-course", validModule(video)), 404);
      expect(await snapshot(ctx)).toEqual(before);
    });

    it("validates an update the same way and changes nothing when it refuses", async () => {
      const cookie = await adminCookie();
      const { course, video } = await courseWithVideo(cookie);
      const thumbnail = await uploadObject(ctx, cookie, { kind: "thumbnail" });
      await addModule(ctx, cookie, course.id, validModule(video, 1));
      const put = (path: string, body: Record<string, unknown>) =>
        ctx.app.inject({ method: "PUT", url: path, headers: { cookie }, payload: body });
      const url = `/api/courses/${course.id}/modules/${moduleId(1)}`;
      const before = await snapshot(ctx);
      expectRefused(await put(url, { ...validModule(video, 1), title: "" }), 400, "title");
      expectRefused(await put(url, { ...validModule(video, 1), duration: 0 }), 400, "duration");
      expectRefused(await put(url, { ...validModule(video, 1), duration: 1.25 }), 400, "duration");
      expectRefused(await put(url, validModule(thumbnail, 1)), 400, "videoUrl");
      expectRefused(await put(url, validModule(UNKNOWN_OBJECT, 1)), 400, "videoUrl");
      expectRefused(
        await put(`/api/courses/${course.id}/modules/not-a-module`, validModule(video, 1)),
        400,
        "moduleId",
      );
      expectRefused(
        await put(`/api/courses/${course.id}/modules/${moduleId(2)}`, validModule(video, 2)),
        404,
      );
      expectRefused(
        await put(`/api/courses/no-such-course/modules/${moduleId(1)}`, validModule(video, 1)),
        404,
      );
      expect(await snapshot(ctx)).toEqual(before);
    });
  });

  describe("module order", () => {
    it("keeps modules in order: new ones last, updates in place, deletes close the gap", async () => {
      const cookie = await adminCookie();
      const { course, video } = await courseWithVideo(cookie);
      // Ids are not in creation order: the position decides, not the id.
      for (const n of [30, 10, 20]) await addModule(ctx, cookie, course.id, validModule(video, n));
      const order = async () =>
        (await getCourse(cookie, course.id)).json().modules.map((m: { id: string }) => m.id);
      expect(await order()).toEqual([moduleId(30), moduleId(10), moduleId(20)]);

      const otherVideo = await uploadObject(ctx, cookie, {
        kind: "video",
        file: "sample-video-2.mp4",
      });
      const updated = await ctx.app.inject({
        method: "PUT",
        url: `/api/courses/${course.id}/modules/${moduleId(10)}`,
        headers: { cookie },
        payload: {
          ...validModule(otherVideo, 10),
          title: "Renamed",
          description: "New text",
          duration: 12,
        },
      });
      expect(updated.statusCode).toBe(200);
      expect(updated.json()).toEqual({
        id: moduleId(10),
        title: "Renamed",
        description: "New text",
        duration: 12,
        videoUrl: otherVideo,
        // The replacement video's length, read from its file.
        videoSeconds: expect.closeTo(3.02, 1),
        kind: "video",
      });
      expect(await order()).toEqual([moduleId(30), moduleId(10), moduleId(20)]);

      const removed = await ctx.app.inject({
        method: "DELETE",
        url: `/api/courses/${course.id}/modules/${moduleId(30)}`,
        headers: { cookie },
      });
      expect(removed.statusCode).toBe(200);
      await addModule(ctx, cookie, course.id, validModule(video, 5));
      expect(await order()).toEqual([moduleId(10), moduleId(20), moduleId(5)]);
      const positions = await ctx.database.db
        .select({ id: modules.id, position: modules.position })
        .from(modules)
        .where(eq(modules.courseId, course.id));
      const byId = Object.fromEntries(positions.map((p) => [p.id, p.position]));
      expect(byId[moduleId(10)]).toBeLessThan(byId[moduleId(20)]!);
      expect(byId[moduleId(20)]).toBeLessThan(byId[moduleId(5)]!);

      const missing = await ctx.app.inject({
        method: "DELETE",
        url: `/api/courses/${course.id}/modules/${moduleId(30)}`,
        headers: { cookie },
      });
      expectRefused(missing, 404);
    });

    it("removes a video from the store once no module uses it any more", async () => {
      const cookie = await adminCookie();
      const { course, video } = await courseWithVideo(cookie);
      const shared = await uploadObject(ctx, cookie, { kind: "video", file: "sample-video-2.mp4" });
      await addModule(ctx, cookie, course.id, validModule(video, 1));
      await addModule(ctx, cookie, course.id, validModule(shared, 2));
      await addModule(ctx, cookie, course.id, validModule(shared, 3));
      // Replacing module 1's video releases the old one.
      const replaced = await ctx.app.inject({
        method: "PUT",
        url: `/api/courses/${course.id}/modules/${moduleId(1)}`,
        headers: { cookie },
        payload: validModule(shared, 1),
      });
      expect(replaced.statusCode).toBe(200);
      expect(await isStored(ctx, video)).toBe(false);
      expect(await objectRows(video)).toEqual([]);
      // Deleting a module whose video another module still plays keeps the file.
      for (const n of [1, 2]) {
        const removed = await ctx.app.inject({
          method: "DELETE",
          url: `/api/courses/${course.id}/modules/${moduleId(n)}`,
          headers: { cookie },
        });
        expect(removed.statusCode).toBe(200);
        expect(await isStored(ctx, shared)).toBe(true);
      }
      const last = await ctx.app.inject({
        method: "DELETE",
        url: `/api/courses/${course.id}/modules/${moduleId(3)}`,
        headers: { cookie },
      });
      expect(last.statusCode).toBe(200);
      expect(await isStored(ctx, shared)).toBe(false);
    });
  });

  describe("publishing", () => {
    it("refuses to publish a course without modules (409) and leaves it a draft", async () => {
      const cookie = await adminCookie();
      const course = await createCourse(ctx, cookie);
      const before = await snapshot(ctx);
      const refused = await ctx.app.inject({
        method: "PATCH",
        url: `/api/courses/${course.id}/publish`,
        headers: { cookie },
      });
      expectRefused(refused, 409);
      expect(await snapshot(ctx)).toEqual(before);
    });

    it("publishes a course with a module, idempotently, and answers 404 for unknown ones", async () => {
      const cookie = await adminCookie();
      const { course, video } = await courseWithVideo(cookie);
      await addModule(ctx, cookie, course.id, validModule(video));
      const first = await publish(ctx, cookie, course.id);
      expect(first.isPublished).toBe(true);
      expect(first.modules).toHaveLength(1);
      const again = await publish(ctx, cookie, course.id);
      expect(again).toMatchObject({ id: course.id, isPublished: true });
      const unknown = await ctx.app.inject({
        method: "PATCH",
        url: "/api/courses/no-such-course/publish",
        headers: { cookie },
      });
      expectRefused(unknown, 404);
    });

    it("unpublishes only through its own action (course-editing.test.ts)", async () => {
      const cookie = await adminCookie();
      const { course, video } = await courseWithVideo(cookie);
      await addModule(ctx, cookie, course.id, validModule(video));
      await publish(ctx, cookie, course.id);
      const attempts = [
        { method: "PATCH", url: `/api/courses/${course.id}`, payload: { isPublished: false } },
        { method: "DELETE", url: `/api/courses/${course.id}/publish` },
      ] as const;
      for (const attempt of attempts) {
        const response = await ctx.app.inject({ ...attempt, headers: { cookie } });
        expect(response.statusCode).toBe(404);
      }
      // Editing the details leaves publication alone.
      const edited = await ctx.app.inject({
        method: "PUT",
        url: `/api/courses/${course.id}`,
        headers: { cookie },
        payload: {
          title: "Renamed",
          description: "D",
          category: "Design",
          duration: 2,
          isPublished: false,
        },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect((await getCourse(cookie, course.id)).json().isPublished).toBe(true);
    });

    it("keeps at least one module in a published course (409 on deleting the last)", async () => {
      const cookie = await adminCookie();
      const { course, video } = await courseWithVideo(cookie);
      await addModule(ctx, cookie, course.id, validModule(video));
      await publish(ctx, cookie, course.id);
      const before = await snapshot(ctx);
      const refused = await ctx.app.inject({
        method: "DELETE",
        url: `/api/courses/${course.id}/modules/${moduleId(1)}`,
        headers: { cookie },
      });
      expectRefused(refused, 409);
      expect(await snapshot(ctx)).toEqual(before);
      expect(await isStored(ctx, video)).toBe(true);
    });
  });

  describe("what learners see", () => {
    async function draftAndPublished(cookie: string) {
      const { course: published, video } = await courseWithVideo(cookie);
      await addModule(ctx, cookie, published.id, validModule(video));
      await publish(ctx, cookie, published.id);
      const draft = await createCourse(ctx, cookie, { title: "Draft course" });
      await addModule(ctx, cookie, draft.id, validModule(video));
      return { published, draft, video };
    }

    it("lists a learner only the published courses they are enrolled in, every course to admins", async () => {
      const cookie = await adminCookie();
      const { published, draft, video } = await draftAndPublished(cookie);
      const other = await createCourse(ctx, cookie, { title: "Published, not enrolled" });
      await addModule(ctx, cookie, other.id, validModule(video));
      await publish(ctx, cookie, other.id);
      const learner = await buildLearner(ctx);
      await enroll(ctx, learner.id, draft.id);
      const learnerCookie = await signIn(ctx, learner);
      const listed = async () => {
        const list = await ctx.app.inject({
          method: "GET",
          url: "/api/courses",
          headers: { cookie: learnerCookie },
        });
        expect(list.statusCode).toBe(200);
        return list.json().map((c: { id: string }) => c.id);
      };
      // Neither the draft they are enrolled in nor a published course they are not.
      expect(await listed()).toEqual([]);
      await enroll(ctx, learner.id, published.id);
      expect(await listed()).toEqual([published.id]);
      await enroll(ctx, learner.id, other.id);
      expect(await listed()).toEqual([other.id, published.id]);
      const all = await ctx.app.inject({ method: "GET", url: "/api/courses", headers: { cookie } });
      expect(
        all
          .json()
          .map((c: { id: string }) => c.id)
          .sort(),
      ).toEqual([published.id, draft.id, other.id].sort());
      const anonymous = await ctx.app.inject({ method: "GET", url: "/api/courses" });
      expectRefused(anonymous, 401);
    });

    it("shows a learner a course only when it is published and they are enrolled", async () => {
      const cookie = await adminCookie();
      const { published, draft } = await draftAndPublished(cookie);
      const learner = await buildLearner(ctx);
      const learnerCookie = await signIn(ctx, learner);
      await enroll(ctx, learner.id, draft.id);

      expectRefused(await getCourse(learnerCookie, draft.id), 404);
      expectRefused(await getCourse(learnerCookie, published.id), 404);
      expectRefused(await getCourse(learnerCookie, "no-such-course"), 404);
      await enroll(ctx, learner.id, published.id);
      const visible = await getCourse(learnerCookie, published.id);
      expect(visible.statusCode).toBe(200);
      expect(visible.json()).toMatchObject({ id: published.id, isPublished: true });
      expect(visible.json().modules).toHaveLength(1);
      // Enrolled or not, a draft stays hidden; admins see it.
      expectRefused(await getCourse(learnerCookie, draft.id), 404);
      expect((await getCourse(cookie, draft.id)).statusCode).toBe(200);
      expectRefused(await getCourse(undefined, published.id), 401);
    });
  });

  describe("only administrators change courses, modules and objects", () => {
    it("refuses every change route to learners (403) and anonymous users (401)", async () => {
      const cookie = await adminCookie();
      const { course, video } = await courseWithVideo(cookie);
      await addModule(ctx, cookie, course.id, validModule(video, 1));
      const pending = (
        await requestUpload(ctx, cookie, { kind: "video", contentType: "video/mp4", size: 10 })
      ).json().uploadURL as string;
      const pendingId = pending.split("?")[0]!.split("/").pop();
      const routes = [
        { method: "POST", url: "/api/courses", payload: { ...validCourseBody() } },
        { method: "DELETE", url: `/api/courses/${course.id}` },
        { method: "PATCH", url: `/api/courses/${course.id}/publish` },
        {
          method: "POST",
          url: `/api/courses/${course.id}/modules`,
          payload: validModule(video, 2),
        },
        {
          method: "PUT",
          url: `/api/courses/${course.id}/modules/${moduleId(1)}`,
          payload: { ...validModule(video, 1), title: "Changed" },
        },
        { method: "DELETE", url: `/api/courses/${course.id}/modules/${moduleId(1)}` },
        {
          method: "POST",
          url: "/api/objects/upload",
          payload: { kind: "video", fileName: "a.mp4", contentType: "video/mp4", size: 10 },
        },
        { method: "PUT", url: "/api/objects/set-acl", payload: { objectURL: pending } },
        {
          method: "PUT",
          url: `/api/objects/upload/${pendingId}`,
          payload: fixture("sample-video.mp4").subarray(0, 10),
          headers: { "content-type": "video/mp4" },
        },
      ] as const;
      const learnerCookie = await signIn(ctx, await buildLearner(ctx));
      const before = await snapshot(ctx);
      for (const route of routes) {
        const headers = "headers" in route ? route.headers : {};
        const asLearner = await ctx.app.inject({
          ...route,
          headers: { ...headers, cookie: learnerCookie },
        });
        expect(asLearner.statusCode, `${route.method} ${route.url}`).toBe(403);
        expectRefused(asLearner, 403);
        const asNobody = await ctx.app.inject({ ...route, headers });
        expect(asNobody.statusCode, `${route.method} ${route.url}`).toBe(401);
        expectRefused(asNobody, 401);
      }
      expect(await snapshot(ctx)).toEqual(before);
      expect(await ctx.store.stat(pendingId!)).toBeNull();
      expect(await isStored(ctx, video)).toBe(true);
    });
  });

  describe("deleting a course", () => {
    it("removes its modules, enrollments, completions and unshared objects", async () => {
      const cookie = await adminCookie();
      const thumbnail = await uploadObject(ctx, cookie, { kind: "thumbnail" });
      const course = await createCourse(ctx, cookie, { thumbnail });
      const own = await uploadObject(ctx, cookie, { kind: "video" });
      const shared = await uploadObject(ctx, cookie, { kind: "video", file: "sample-video-2.mp4" });
      await addModule(ctx, cookie, course.id, validModule(own, 1));
      await addModule(ctx, cookie, course.id, validModule(shared, 2));
      await publish(ctx, cookie, course.id);
      const other = await createCourse(ctx, cookie, { title: "Keeps the shared video" });
      await addModule(ctx, cookie, other.id, validModule(shared, 1));

      const learner = await buildLearner(ctx);
      const enrollment = await enroll(ctx, learner.id, course.id);
      await completeModule(ctx, enrollment.id, moduleId(1));
      const otherEnrollment = await enroll(ctx, learner.id, other.id);
      await completeModule(ctx, otherEnrollment.id, moduleId(1));

      const deleted = await ctx.app.inject({
        method: "DELETE",
        url: `/api/courses/${course.id}`,
        headers: { cookie },
      });
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ message: expect.any(String) });

      expectRefused(await getCourse(cookie, course.id), 404);
      const after = await snapshot(ctx);
      expect(after.courses.map((c) => c.id)).toEqual([other.id]);
      expect(after.modules.map((m) => [m.courseId, m.id])).toEqual([[other.id, moduleId(1)]]);
      expect(after.enrollments.map((e) => e.id)).toEqual([otherEnrollment.id]);
      expect(after.completions.map((c) => c.enrollmentId)).toEqual([otherEnrollment.id]);
      const left = await ctx.database.db
        .select()
        .from(enrollments)
        .where(eq(enrollments.courseId, course.id));
      expect(left).toEqual([]);
      const completions = await ctx.database.db
        .select()
        .from(moduleCompletions)
        .where(eq(moduleCompletions.enrollmentId, enrollment.id));
      expect(completions).toEqual([]);

      // Its own files are gone from the store and the objects table; the shared one stays.
      for (const path of [thumbnail, own]) {
        expect(await isStored(ctx, path)).toBe(false);
        expect(await objectRows(path)).toEqual([]);
        if (storeKind === "local") {
          expect(existsSync(join(ctx.dataDir, "objects", objectIdOf(path)))).toBe(false);
        }
        expect((await download(ctx, path, { cookie })).statusCode).toBe(404);
      }
      expect(await isStored(ctx, shared)).toBe(true);
      expect(await objectRows(shared)).toHaveLength(1);
      const stillPlays = await download(ctx, shared, { cookie });
      expect(stillPlays.statusCode).toBe(200);

      const again = await ctx.app.inject({
        method: "DELETE",
        url: `/api/courses/${course.id}`,
        headers: { cookie },
      });
      expectRefused(again, 404);
    });
  });

  function objectRows(path: string) {
    return ctx.database.db
      .select()
      .from(objects)
      .where(eq(objects.id, objectIdOf(path)));
  }
});

function validCourseBody() {
  return {
    title: "Learner's course",
    description: "Should never exist",
    category: "Design",
    duration: 2,
  };
}
