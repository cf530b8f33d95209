import { describe, expect, it } from "vitest";
import {
  type Course,
  type CoursePublishChecks,
  type Module,
  PUBLISH_MESSAGES,
} from "../../../contract";
import { addModule, createCourse, moduleId, snapshot, validModule } from "../../testing/courses";
import { call, quickAdmin, quickLearner, signInAs } from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";
import { fixture, putUpload, requestUpload, setAcl } from "../../testing/uploads";

/**
 * A module's real video length, read by the server from the uploaded file, against the
 * length the administrator states; and publishing a credit course whose modules are
 * completed manually, which asks for a confirmation.
 */
describe("video length and the publish confirmation", () => {
  const ctx = useTestApp();

  /** Uploads a test fixture as a video: set-acl's answer. */
  async function uploadVideo(cookie: string, file: string, contentType: string) {
    const bytes = fixture(file);
    const requested = await requestUpload(ctx, cookie, {
      kind: "video",
      contentType,
      size: bytes.length,
    });
    expect(requested.statusCode, requested.body).toBe(200);
    const { uploadURL } = requested.json() as { uploadURL: string };
    const put = await putUpload(ctx, cookie, uploadURL, bytes, contentType);
    expect(put.statusCode, put.body).toBe(200);
    const acl = await setAcl(ctx, cookie, uploadURL);
    expect(acl.statusCode, acl.body).toBe(200);
    return acl.json() as { objectPath: string; durationSeconds: number | null };
  }

  const checksOf = async (cookie: string, courseId: string) => {
    const response = await call(ctx, "GET", `/api/courses/${courseId}/publish-checks`, { cookie });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as CoursePublishChecks).checks;
  };

  const publish = (cookie: string, courseId: string, query = "") =>
    call(ctx, "PATCH", `/api/courses/${courseId}/publish${query}`, { cookie });

  /** Offers one credit type on the course (the course's credit offer). */
  /** A hundredth of a contact hour: what a one-minute video supports, so only the rule decides. */
  async function offerCredit(cookie: string, courseId: string) {
    const response = await call(ctx, "PUT", `/api/courses/${courseId}/credit`, {
      cookie,
      payload: {
        bodies: [{ name: "ANCC", providerNumber: "P0042" }],
        types: [
          {
            name: "contact hours",
            amount: 0.01,
            accreditingBody: "ANCC",
            accreditationStatement: "",
            designationStatement: "",
            claimStep: null,
            licenceRequired: false,
          },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  it("reads an MP4's and a WebM's length from the file on upload, and a module keeps its video's", async () => {
    const cookie = await signInAs(ctx, await quickAdmin(ctx));
    const mp4 = await uploadVideo(cookie, "sample-video.mp4", "video/mp4");
    expect(mp4.durationSeconds).toBeCloseTo(4.02, 1);
    const webm = await uploadVideo(cookie, "sample-video.webm", "video/webm");
    expect(webm.durationSeconds).toBeCloseTo(3, 1);
    // Only a video has a length.
    const thumbnail = await uploadThumbnail(cookie);
    expect(thumbnail).not.toHaveProperty("durationSeconds");

    const course = await createCourse(ctx, cookie);
    const added = await addModule(ctx, cookie, course.id, validModule(mp4.objectPath, 1));
    expect(added.videoSeconds).toBeCloseTo(4.02, 1);
    // Replacing the video replaces its length; editing anything else keeps it.
    const replaced = await call(ctx, "PUT", `/api/courses/${course.id}/modules/${added.id}`, {
      cookie,
      payload: { ...validModule(webm.objectPath, 1), title: "Renamed" },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect((replaced.json() as Module).videoSeconds).toBeCloseTo(3, 1);
    const renamed = await call(ctx, "PUT", `/api/courses/${course.id}/modules/${added.id}`, {
      cookie,
      payload: { ...validModule(webm.objectPath, 1), title: "Renamed again", duration: 2 },
    });
    expect((renamed.json() as Module).videoSeconds).toBeCloseTo(3, 1);
    const read = await call(ctx, "GET", `/api/courses/${course.id}`, { cookie });
    expect((read.json() as Course).modules[0]!.videoSeconds).toBeCloseTo(3, 1);
  });

  it("flags a module whose stated length differs from its video's by more than 10 %", async () => {
    const cookie = await signInAs(ctx, await quickAdmin(ctx));
    const minute = await uploadVideo(cookie, "sample-video-60s.webm", "video/webm");
    expect(minute.durationSeconds).toBeCloseTo(60, 0);
    const short = await uploadVideo(cookie, "sample-video.mp4", "video/mp4");
    const course = await createCourse(ctx, cookie);
    // 1 minute for a 60-second video fits; 2 minutes is 100 % over; 1 minute for 4 s is far over.
    const fits = await addModule(ctx, cookie, course.id, {
      ...validModule(minute.objectPath, 1),
      duration: 1,
    });
    const over = await addModule(ctx, cookie, course.id, {
      ...validModule(minute.objectPath, 2),
      title: "Stated too long",
      duration: 2,
    });
    const clip = await addModule(ctx, cookie, course.id, {
      ...validModule(short.objectPath, 3),
      title: "A short clip",
      duration: 15,
    });
    expect(await checksOf(cookie, course.id)).toEqual([
      {
        key: "module-length",
        severity: "warning",
        message: PUBLISH_MESSAGES.moduleLength(2, "Stated too long", 2, over.videoSeconds!),
        moduleId: over.id,
      },
      {
        key: "module-length",
        severity: "warning",
        message: expect.stringMatching(
          /^Module 3 "A short clip": States 15 minutes; its video plays 4 s\.$/,
        ),
        moduleId: clip.id,
      },
    ]);
    expect(fits.videoSeconds).toBeCloseTo(60, 0);
    // A warning only: the course without credit publishes as the spec says.
    const published = await publish(cookie, course.id);
    expect(published.statusCode, published.body).toBe(200);
    expect(await checksOf(cookie, course.id)).toHaveLength(2);
  });

  it("asks for a confirmation before publishing a credit course completed manually", async () => {
    const cookie = await signInAs(ctx, await quickAdmin(ctx));
    const video = await uploadVideo(cookie, "sample-video-60s.webm", "video/webm");
    const course = await createCourse(ctx, cookie);
    await addModule(ctx, cookie, course.id, { ...validModule(video.objectPath, 1), duration: 1 });
    await offerCredit(cookie, course.id);
    expect(await checksOf(cookie, course.id)).toEqual([
      {
        key: "manual-completion",
        severity: "confirm",
        message: PUBLISH_MESSAGES.manualCompletion,
        moduleId: null,
      },
    ]);

    const before = await snapshot(ctx);
    const refused = await publish(cookie, course.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: "courses.publish_needs_confirmation",
      message: PUBLISH_MESSAGES.manualCompletion,
    });
    const wrongWord = await publish(cookie, course.id, "?confirm=yes");
    expect(wrongWord.statusCode).toBe(400);
    expect(await snapshot(ctx)).toEqual(before);

    const confirmed = await publish(cookie, course.id, "?confirm=manual-completion");
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((confirmed.json() as Course).isPublished).toBe(true);
    // Publishing it again changes nothing and asks nothing.
    expect((await publish(cookie, course.id)).statusCode).toBe(200);
  });

  it("shows the checks to administrators only, for courses that exist", async () => {
    const cookie = await signInAs(ctx, await quickAdmin(ctx));
    const learner = await signInAs(ctx, await quickLearner(ctx));
    const course = await createCourse(ctx, cookie);
    const url = `/api/courses/${course.id}/publish-checks`;
    expect((await call(ctx, "GET", url, { cookie: learner })).statusCode).toBe(403);
    expect((await call(ctx, "GET", url, { cookie: "" })).statusCode).toBe(401);
    const missing = await call(ctx, "GET", "/api/courses/nope/publish-checks", { cookie });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: "courses.not_found" });
    const unknown = await publish(cookie, "nope", "?confirm=manual-completion");
    expect(unknown.statusCode).toBe(404);
  });

  it("publishes a credit course with verified watching, and any course without credit, without asking", async () => {
    const cookie = await signInAs(ctx, await quickAdmin(ctx));
    const video = await uploadVideo(cookie, "sample-video-60s.webm", "video/webm");
    const verified = await createCourse(ctx, cookie, { completionPolicy: "verified" });
    await addModule(ctx, cookie, verified.id, {
      ...validModule(video.objectPath, 1),
      id: moduleId(11),
      duration: 1,
    });
    await offerCredit(cookie, verified.id);
    expect(await checksOf(cookie, verified.id)).toEqual([]);
    expect((await publish(cookie, verified.id)).statusCode).toBe(200);

    const plain = await createCourse(ctx, cookie);
    await addModule(ctx, cookie, plain.id, {
      ...validModule(video.objectPath, 2),
      id: moduleId(12),
      duration: 1,
    });
    expect((await publish(cookie, plain.id)).statusCode).toBe(200);
  });

  async function uploadThumbnail(cookie: string) {
    const bytes = fixture("sample-thumbnail.png");
    const requested = await requestUpload(ctx, cookie, {
      kind: "thumbnail",
      contentType: "image/png",
      size: bytes.length,
    });
    const { uploadURL } = requested.json() as { uploadURL: string };
    await putUpload(ctx, cookie, uploadURL, bytes, "image/png");
    return (await setAcl(ctx, cookie, uploadURL)).json() as Record<string, unknown>;
  }
});
