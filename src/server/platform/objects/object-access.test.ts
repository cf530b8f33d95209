import { describe, expect, it } from "vitest";
import {
  addModule,
  completeModule,
  createCourse,
  enroll,
  moduleId,
  publish,
  validModule,
} from "../../testing/courses";
import { expectErrorBody } from "../../testing/errors";
import { buildAdmin, buildLearner, signIn } from "../../testing/factories";
import {
  download,
  STORE_KINDS,
  type StoreTestContext,
  useTestAppWithStore,
} from "../../testing/object-stores";
import { fixture, uploadObject } from "../../testing/uploads";

const mp4 = fixture("sample-video.mp4");
const mp4Second = fixture("sample-video-2.mp4");
const png = fixture("sample-thumbnail.png");

/**
 * Who may read an uploaded file (ARCHITECTURE section 3, SPEC section 4 module access):
 * admins; any signed-in user for a published course's thumbnail; a learner for a module's
 * video once enrolled in its published course and the module is unlocked.
 */
describe.each(STORE_KINDS)("object access rules (%s object store)", (storeKind) => {
  const ctx: StoreTestContext = useTestAppWithStore(storeKind);

  /** A published course with two modules, a draft course, and files nobody uses yet. */
  async function catalogue() {
    const admin = await signIn(ctx, await buildAdmin(ctx));
    const thumbnail = await uploadObject(ctx, admin, { kind: "thumbnail" });
    const first = await uploadObject(ctx, admin, { kind: "video" });
    const second = await uploadObject(ctx, admin, { kind: "video", file: "sample-video-2.mp4" });
    const course = await createCourse(ctx, admin, { thumbnail });
    await addModule(ctx, admin, course.id, validModule(first, 1));
    await addModule(ctx, admin, course.id, validModule(second, 2));
    await publish(ctx, admin, course.id);

    const draftThumbnail = await uploadObject(ctx, admin, { kind: "thumbnail" });
    const draftVideo = await uploadObject(ctx, admin, { kind: "video" });
    const draft = await createCourse(ctx, admin, { title: "Draft", thumbnail: draftThumbnail });
    await addModule(ctx, admin, draft.id, validModule(draftVideo, 1));

    const otherVideo = await uploadObject(ctx, admin, { kind: "video" });
    const other = await createCourse(ctx, admin, { title: "Another course" });
    await addModule(ctx, admin, other.id, validModule(otherVideo, 1));
    await publish(ctx, admin, other.id);

    const orphanThumbnail = await uploadObject(ctx, admin, { kind: "thumbnail" });
    const orphanVideo = await uploadObject(ctx, admin, { kind: "video" });
    return {
      admin,
      course,
      thumbnail,
      first,
      second,
      draft,
      draftThumbnail,
      draftVideo,
      other,
      otherVideo,
      orphanThumbnail,
      orphanVideo,
    };
  }

  async function learnerIn(...courseIds: string[]) {
    const learner = await buildLearner(ctx);
    const enrollments = [];
    for (const courseId of courseIds) enrollments.push(await enroll(ctx, learner.id, courseId));
    return { learner, cookie: await signIn(ctx, learner), enrollments };
  }

  /** The status a user gets for an object, after following an S3 redirect. */
  async function statusOf(path: string, cookie?: string) {
    const result = await download(ctx, path, cookie ? { cookie } : {});
    if (result.portal.statusCode >= 400) {
      // A refusal never hands out a presigned URL.
      expect(result.portal.headers.location).toBeUndefined();
      expectErrorBody({
        statusCode: result.portal.statusCode,
        json: () => JSON.parse(result.portal.body),
      });
    }
    return result.statusCode;
  }

  it("lets administrators read every object", async () => {
    const c = await catalogue();
    for (const path of [
      c.thumbnail,
      c.first,
      c.second,
      c.draftThumbnail,
      c.draftVideo,
      c.otherVideo,
      c.orphanThumbnail,
      c.orphanVideo,
    ]) {
      expect(await statusOf(path, c.admin), path).toBe(200);
    }
    const another = await signIn(ctx, await buildAdmin(ctx));
    expect(await statusOf(c.orphanVideo, another)).toBe(200);
  });

  it("refuses anonymous users everything (401)", async () => {
    const c = await catalogue();
    for (const path of [c.thumbnail, c.first, c.draftThumbnail, c.orphanThumbnail]) {
      expect(await statusOf(path), path).toBe(401);
    }
  });

  it("shows a published course's thumbnail to any signed-in learner, not a draft's", async () => {
    const c = await catalogue();
    const notEnrolled = await learnerIn();
    const enrolledInDraft = await learnerIn(c.draft.id);
    for (const { cookie } of [notEnrolled, enrolledInDraft]) {
      const served = await download(ctx, c.thumbnail, { cookie });
      expect(served.statusCode).toBe(200);
      expect(served.body.equals(png)).toBe(true);
      expect(await statusOf(c.draftThumbnail, cookie)).toBe(404);
      expect(await statusOf(c.orphanThumbnail, cookie)).toBe(404);
    }
  });

  it("plays the first module to an enrolled learner and locks the second until the first is complete", async () => {
    const c = await catalogue();
    const { cookie, enrollments } = await learnerIn(c.course.id);

    const first = await download(ctx, c.first, { cookie, range: "bytes=0-1023" });
    expect(first.statusCode).toBe(206);
    expect(first.body.equals(mp4.subarray(0, 1024))).toBe(true);

    const locked = await ctx.app.inject({ method: "GET", url: c.second, headers: { cookie } });
    expect(locked.statusCode).toBe(403);
    expect(locked.json().message).toMatch(/previous module/i);
    expect(locked.headers.location).toBeUndefined();

    await completeModule(ctx, enrollments[0]!.id, moduleId(1));
    const unlocked = await download(ctx, c.second, { cookie });
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.body.equals(mp4Second)).toBe(true);
  });

  it("follows the course's current module order", async () => {
    const c = await catalogue();
    const { cookie } = await learnerIn(c.course.id);
    expect(await statusOf(c.second, cookie)).toBe(403);
    const removed = await ctx.app.inject({
      method: "DELETE",
      url: `/api/courses/${c.course.id}/modules/${moduleId(1)}`,
      headers: { cookie: c.admin },
    });
    expect(removed.statusCode).toBe(200);
    // The second module is now the first, so it is open.
    expect(await statusOf(c.second, cookie)).toBe(200);
  });

  it("refuses videos to learners of another course, of a draft, and of no course (404)", async () => {
    const c = await catalogue();
    const ofAnother = await learnerIn(c.other.id);
    expect(await statusOf(c.otherVideo, ofAnother.cookie)).toBe(200);
    for (const path of [c.first, c.second, c.draftVideo, c.orphanVideo]) {
      expect(await statusOf(path, ofAnother.cookie), path).toBe(404);
    }
    // Completing a module of another course unlocks nothing here.
    await completeModule(ctx, ofAnother.enrollments[0]!.id, moduleId(1));
    expect(await statusOf(c.second, ofAnother.cookie)).toBe(404);

    const ofDraft = await learnerIn(c.draft.id);
    expect(await statusOf(c.draftVideo, ofDraft.cookie)).toBe(404);

    const ofNothing = await learnerIn();
    for (const path of [c.first, c.otherVideo, c.draftVideo]) {
      expect(await statusOf(path, ofNothing.cookie), path).toBe(404);
    }
  });

  it("stops serving a learner once their enrollment or the course is gone", async () => {
    const c = await catalogue();
    const { cookie } = await learnerIn(c.course.id);
    expect(await statusOf(c.first, cookie)).toBe(200);
    const deleted = await ctx.app.inject({
      method: "DELETE",
      url: `/api/courses/${c.course.id}`,
      headers: { cookie: c.admin },
    });
    expect(deleted.statusCode).toBe(200);
    expect(await statusOf(c.first, cookie)).toBe(404);
    expect(await statusOf(c.thumbnail, cookie)).toBe(404);
  });
});
