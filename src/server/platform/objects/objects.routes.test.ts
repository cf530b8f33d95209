import { readdirSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { courseImagePath, THUMBNAIL_MAX_BYTES, VIDEO_MAX_BYTES } from "../../../contract";
import {
  createCourse,
  postCourse,
  postModule,
  publish,
  snapshot,
  validModule,
} from "../../testing/courses";
import { buildAdmin, signIn } from "../../testing/factories";
import {
  download,
  isStored,
  STORE_KINDS,
  type StoreTestContext,
  useTestAppWithStore,
} from "../../testing/object-stores";
import { fixture, putUpload, requestUpload, setAcl, uploadObject } from "../../testing/uploads";
import { objects } from "./objects.table";

const png = fixture("sample-thumbnail.png");
const mp4 = fixture("sample-video.mp4");
const html = Buffer.from(
  "<!doctype html><html><body><script>fetch('/api/auth/me').then(r=>r.text()).then(alert)</script></body></html>\n",
);
const svg = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"><script>alert(1)</script></svg>\n',
);
/** Text that must never come back from a traversal attempt. */
const SECRETS = [/root:.*:0:0:/, /"devDependencies"/, /"name":\s*"credo-lms"/];
const packageJson = readFileSync(new URL("../../../../package.json", import.meta.url), "utf8");

/** The id at the end of an upload URL (local path or presigned S3 URL). */
const idOfUploadUrl = (url: string) => new URL(url, "http://x").pathname.split("/").pop()!;
const pathOfUploadUrl = (url: string) => `/objects/uploads/${idOfUploadUrl(url)}`;

describe.each(STORE_KINDS)("objects (%s object store)", (storeKind) => {
  const ctx: StoreTestContext = useTestAppWithStore(storeKind);

  async function adminCookie() {
    return signIn(ctx, await buildAdmin(ctx));
  }

  async function objectRow(url: string) {
    const [row] = await ctx.database.db
      .select()
      .from(objects)
      .where(eq(objects.id, idOfUploadUrl(url)));
    return row;
  }

  async function issue(
    cookie: string,
    kind: "thumbnail" | "video",
    contentType: string,
    size: number,
  ) {
    const response = await requestUpload(ctx, cookie, { kind, contentType, size });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().uploadURL as string;
  }

  /**
   * PUTs the bytes and runs set-acl; a disguised or oversized file is refused at the local
   * PUT (the bytes pass through this server) or at set-acl (S3: they went straight to the
   * bucket). Returns the refusal's status and message.
   */
  async function uploadRefused(
    cookie: string,
    uploadURL: string,
    bytes: Buffer,
    contentType: string,
  ) {
    const put = await putUpload(ctx, cookie, uploadURL, bytes, contentType);
    if (storeKind === "local") {
      expect(put.statusCode).not.toBe(200);
      // set-acl of a refused upload: it never became usable.
      expect((await setAcl(ctx, cookie, uploadURL)).statusCode).toBe(409);
      return { statusCode: put.statusCode, message: JSON.parse(put.body).message as string };
    }
    const acl = await setAcl(ctx, cookie, uploadURL);
    expect(acl.statusCode).not.toBe(200);
    // Asking again does not turn it into a usable object either.
    expect((await setAcl(ctx, cookie, uploadURL)).statusCode).toBe(409);
    return { statusCode: acl.statusCode, message: acl.json().message as string };
  }

  /** A refused upload leaves no bytes, a 'rejected' row, and cannot be used or served. */
  async function expectNeverUsable(cookie: string, uploadURL: string) {
    expect(await isStored(ctx, pathOfUploadUrl(uploadURL))).toBe(false);
    expect((await objectRow(uploadURL))?.status).toBe("rejected");
    const path = pathOfUploadUrl(uploadURL);
    const served = await ctx.app.inject({ method: "GET", url: path, headers: { cookie } });
    expect(served.statusCode).toBe(404);
    expect(served.headers.location).toBeUndefined();
    expect((await postCourse(ctx, cookie, { thumbnail: path })).statusCode).toBe(400);
    const course = await createCourse(ctx, cookie, { title: "Uses nothing refused" });
    expect((await postModule(ctx, cookie, course.id, validModule(path))).statusCode).toBe(400);
  }

  describe("requesting an upload", () => {
    it("issues an upload URL of the configured store", async () => {
      const cookie = await adminCookie();
      const uploadURL = await issue(cookie, "video", "video/mp4", mp4.length);
      if (storeKind === "local") {
        expect(uploadURL).toMatch(/^\/api\/objects\/upload\/[A-Za-z0-9_-]{24}$/);
      } else {
        expect(uploadURL).toMatch(
          /^http:\/\/127\.0\.0\.1:\d+\/credo-test\/incoming\/[A-Za-z0-9_-]{24}\?.*X-Amz-Signature=/,
        );
      }
      expect(await objectRow(uploadURL)).toMatchObject({
        kind: "video",
        status: "pending",
        declaredType: "video/mp4",
        declaredSize: mp4.length,
      });
    });

    it("refuses declared types a kind does not allow (415) and records nothing", async () => {
      const cookie = await adminCookie();
      const refused: [string, string][] = [
        ["thumbnail", "video/mp4"],
        ["thumbnail", "image/svg+xml"],
        ["thumbnail", "text/html"],
        ["thumbnail", "image/bmp"],
        ["video", "image/png"],
        ["video", "video/x-msvideo"],
        ["video", "application/octet-stream"],
        ["video", "text/html"],
      ];
      for (const [kind, contentType] of refused) {
        const response = await requestUpload(ctx, cookie, {
          kind: kind as "thumbnail" | "video",
          contentType,
          size: 100,
        });
        expect(response.statusCode, `${kind} ${contentType}`).toBe(415);
        expect(response.json()).toEqual({
          message: expect.any(String),
          code: "uploads.type_not_allowed",
        });
      }
      expect((await snapshot(ctx)).objects).toEqual([]);
    });

    it("accepts every allowed type", async () => {
      const cookie = await adminCookie();
      for (const contentType of ["image/jpeg", "image/png", "image/webp", "image/gif"]) {
        await issue(cookie, "thumbnail", contentType, 100);
      }
      for (const contentType of ["video/mp4", "video/webm", "video/quicktime"]) {
        await issue(cookie, "video", contentType, 100);
      }
      expect((await snapshot(ctx)).objects).toHaveLength(7);
    });

    it("refuses declared sizes over the limit (413), accepts the limit itself", async () => {
      const cookie = await adminCookie();
      const over = [
        { kind: "thumbnail", contentType: "image/png", size: THUMBNAIL_MAX_BYTES + 1 },
        { kind: "video", contentType: "video/mp4", size: VIDEO_MAX_BYTES + 1 },
      ] as const;
      for (const body of over) {
        const response = await requestUpload(ctx, cookie, body);
        expect(response.statusCode, body.kind).toBe(413);
        expect(response.json()).toEqual({ message: expect.any(String), code: "uploads.too_large" });
      }
      expect((await snapshot(ctx)).objects).toEqual([]);
      expect(THUMBNAIL_MAX_BYTES).toBe(5242880);
      expect(VIDEO_MAX_BYTES).toBe(524288000);
      await issue(cookie, "thumbnail", "image/png", THUMBNAIL_MAX_BYTES);
      await issue(cookie, "video", "video/mp4", VIDEO_MAX_BYTES);
    });

    it("refuses malformed requests with 400 naming the field", async () => {
      const cookie = await adminCookie();
      const cases: [Record<string, unknown>, string][] = [
        [{ kind: "document", contentType: "application/pdf", size: 10 }, "kind"],
        [{ kind: "video", contentType: "video/mp4", size: 0 }, "size"],
        [{ kind: "video", contentType: "video/mp4", size: 1.5 }, "size"],
        [{ kind: "video", contentType: "video/mp4", size: "10" }, "size"],
        [{ kind: "video", contentType: "video/mp4" }, "size"],
        [{ kind: "video", size: 10 }, "contentType"],
        [{ kind: "video", contentType: "video/mp4", size: 10, fileName: "" }, "fileName"],
      ];
      for (const [body, field] of cases) {
        const response = await ctx.app.inject({
          method: "POST",
          url: "/api/objects/upload",
          headers: { cookie },
          payload: { fileName: "clip.mp4", ...body },
        });
        expect(response.statusCode, field).toBe(400);
        expect(response.json().path, field).toBe(field);
        expect(response.json().message, field).not.toMatch(
          /Invalid input|Too (big|small)|expected/,
        );
      }
      expect((await snapshot(ctx)).objects).toEqual([]);
    });
  });

  describe("uploading the bytes and set-acl", () => {
    it("stores a real file and returns its object path; set-acl again gives the same path", async () => {
      const cookie = await adminCookie();
      const uploadURL = await issue(cookie, "thumbnail", "image/png", png.length);
      const put = await putUpload(ctx, cookie, uploadURL, png, "image/png");
      expect(put.statusCode).toBe(200);
      const acl = await setAcl(ctx, cookie, uploadURL);
      expect(acl.statusCode).toBe(200);
      const objectPath = pathOfUploadUrl(uploadURL);
      expect(acl.json()).toEqual({ objectPath });
      expect(await objectRow(uploadURL)).toMatchObject({
        status: "ready",
        contentType: "image/png",
        size: png.length,
      });
      expect((await setAcl(ctx, cookie, uploadURL)).json()).toEqual({ objectPath });
      expect(await ctx.store.stat(idOfUploadUrl(uploadURL))).toEqual({ size: png.length });
    });

    it("refuses a body bigger than declared (413) and stores nothing", async () => {
      const cookie = await adminCookie();
      for (const [kind, bytes, type] of [
        ["thumbnail", png, "image/png"],
        ["video", mp4, "video/mp4"],
      ] as const) {
        const uploadURL = await issue(cookie, kind, type, bytes.length - 100);
        const refusal = await uploadRefused(cookie, uploadURL, bytes, type);
        expect(refusal.statusCode, kind).toBe(413);
        await expectNeverUsable(cookie, uploadURL);
        if (storeKind === "local") {
          // Not even a partial file stays behind.
          const id = idOfUploadUrl(uploadURL);
          const left = readdirSync(join(ctx.dataDir, "objects")).filter((f) => f.startsWith(id));
          expect(left).toEqual([]);
        }
      }
    });

    it("never accepts fewer bytes than declared; the same URL can be sent again", async () => {
      const cookie = await adminCookie();
      const uploadURL = await issue(cookie, "video", "video/mp4", mp4.length);
      const half = mp4.subarray(0, mp4.length / 2);
      if (storeKind === "local") {
        // A body that ended short (a proxy cut it, a chunked upload stopped early).
        const short = await putUpload(ctx, cookie, uploadURL, half, "video/mp4");
        expect(short.statusCode).toBe(400);
        expect(JSON.parse(short.body).message).toBe(
          "The upload ended before the whole file arrived. Send the file again.",
        );
        const id = idOfUploadUrl(uploadURL);
        expect(readdirSync(join(ctx.dataDir, "objects")).filter((f) => f.startsWith(id))).toEqual(
          [],
        );
      } else {
        // What a lenient S3-compatible store would keep of a cut-off PUT.
        await ctx.store.write(idOfUploadUrl(uploadURL), Readable.from([half]), {
          maxBytes: mp4.length,
          contentType: "video/mp4",
        });
      }
      expect((await setAcl(ctx, cookie, uploadURL)).statusCode).toBe(409);
      expect(await ctx.store.stat(idOfUploadUrl(uploadURL))).toBeNull();
      expect((await objectRow(uploadURL))?.status).toBe("pending");
      const path = pathOfUploadUrl(uploadURL);
      expect(
        (await ctx.app.inject({ method: "GET", url: path, headers: { cookie } })).statusCode,
      ).toBe(404);
      const course = await createCourse(ctx, cookie, { title: "Uses nothing partial" });
      expect((await postModule(ctx, cookie, course.id, validModule(path))).statusCode).toBe(400);
      // The retry: the whole file to the same URL.
      expect((await putUpload(ctx, cookie, uploadURL, mp4, "video/mp4")).statusCode).toBe(200);
      // A video's answer carries its length, read from the file.
      expect((await setAcl(ctx, cookie, uploadURL)).json()).toEqual({
        objectPath: path,
        durationSeconds: expect.closeTo(4.02, 1),
      });
      expect((await postModule(ctx, cookie, course.id, validModule(path))).statusCode).toBe(201);
    });

    it.runIf(storeKind === "local")(
      "keeps nothing of a PUT whose connection is cut off; the upload stays pending",
      async () => {
        const cookie = await adminCookie();
        const uploadURL = await issue(cookie, "video", "video/mp4", mp4.length);
        const socket = connect((await listening()).port, "127.0.0.1");
        socket.on("error", () => {});
        socket.write(
          `PUT ${uploadURL} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\nContent-Type: video/mp4\r\nContent-Length: ${mp4.length}\r\n\r\n`,
        );
        socket.write(mp4.subarray(0, Math.floor(mp4.length * 0.9)));
        const id = idOfUploadUrl(uploadURL);
        const files = () =>
          readdirSync(join(ctx.dataDir, "objects"), { withFileTypes: true })
            .map((f) => f.name)
            .filter((f) => f.startsWith(id));
        // The bytes are arriving (into a temp file only)...
        await vi.waitFor(() => expect(files()).toEqual([expect.stringMatching(/\.part$/)]), {
          timeout: 10_000,
        });
        // ...then the connection drops at 90 %, and the temp file goes.
        socket.destroy();
        await vi.waitFor(() => expect(files()).toEqual([]), { timeout: 10_000 });
        expect((await objectRow(uploadURL))?.status).toBe("pending");
        expect((await setAcl(ctx, cookie, uploadURL)).statusCode).toBe(409);
        expect((await putUpload(ctx, cookie, uploadURL, mp4, "video/mp4")).statusCode).toBe(200);
        expect((await setAcl(ctx, cookie, uploadURL)).statusCode).toBe(200);
      },
    );

    it("refuses disguised files (a renamed HTML or SVG file) with 415; they never become usable", async () => {
      const cookie = await adminCookie();
      const disguised = [
        ["HTML as a PNG thumbnail", "thumbnail", "image/png", html],
        ["SVG as a PNG thumbnail", "thumbnail", "image/png", svg],
        ["HTML as an MP4 video", "video", "video/mp4", html],
        ["SVG as an MP4 video", "video", "video/mp4", svg],
        ["a PNG as an MP4 video", "video", "video/mp4", png],
        ["an MP4 as a PNG thumbnail", "thumbnail", "image/png", mp4],
      ] as const;
      for (const [name, kind, type, bytes] of disguised) {
        const uploadURL = await issue(cookie, kind, type, bytes.length);
        const refusal = await uploadRefused(cookie, uploadURL, bytes, type);
        expect(refusal.statusCode, name).toBe(415);
        expect(refusal.message, name).toMatch(/contents/i);
        await expectNeverUsable(cookie, uploadURL);
      }
    });

    it("refuses set-acl for a URL this portal did not issue (400)", async () => {
      const cookie = await adminCookie();
      await uploadObject(ctx, cookie, { kind: "video" });
      const before = await snapshot(ctx);
      for (const objectURL of [
        "https://evil.example/uploads/AAAAAAAAAAAAAAAAAAAAAAAA",
        "/api/objects/upload/AAAAAAAAAAAAAAAAAAAAAAAA",
        "/objects/uploads/AAAAAAAAAAAAAAAAAAAAAAAA",
        "/api/objects/upload/../../../etc/passwd",
        "/etc/passwd",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "not a url at all",
      ]) {
        const response = await setAcl(ctx, cookie, objectURL);
        expect(response.statusCode, objectURL).toBe(400);
        expect(response.json()).toMatchObject({
          path: "objectURL",
          message: "This file was not uploaded through this portal: upload it again.",
        });
      }
      const empty = await setAcl(ctx, cookie, "");
      expect(empty.statusCode).toBe(400);
      expect(await snapshot(ctx)).toEqual(before);
    });

    it("refuses set-acl while the bytes have not arrived (409), accepts it once they have", async () => {
      const cookie = await adminCookie();
      const uploadURL = await issue(cookie, "video", "video/mp4", mp4.length);
      const early = await setAcl(ctx, cookie, uploadURL);
      expect(early.statusCode).toBe(409);
      expect(early.json()).toEqual({ message: expect.any(String), code: "uploads.not_finished" });
      expect((await objectRow(uploadURL))?.status).toBe("pending");
      const path = pathOfUploadUrl(uploadURL);
      expect((await download(ctx, path, { cookie })).statusCode).toBe(404);
      const course = await createCourse(ctx, cookie);
      expect((await postModule(ctx, cookie, course.id, validModule(path))).statusCode).toBe(400);

      expect((await putUpload(ctx, cookie, uploadURL, mp4, "video/mp4")).statusCode).toBe(200);
      expect((await setAcl(ctx, cookie, uploadURL)).statusCode).toBe(200);
      expect((await postModule(ctx, cookie, course.id, validModule(path))).statusCode).toBe(201);
    });

    it("refuses another admin's upload at the PUT and at set-acl", async () => {
      const owner = await adminCookie();
      const other = await adminCookie();
      const uploadURL = await issue(owner, "thumbnail", "image/png", png.length);
      if (storeKind === "local") {
        const put = await putUpload(ctx, other, uploadURL, png, "image/png");
        expect(put.statusCode).toBe(404);
        expect(await isStored(ctx, pathOfUploadUrl(uploadURL))).toBe(false);
      }
      expect((await putUpload(ctx, owner, uploadURL, png, "image/png")).statusCode).toBe(200);
      const stolen = await setAcl(ctx, other, uploadURL);
      expect(stolen.statusCode).toBe(400);
      expect(stolen.json().path).toBe("objectURL");
      expect((await objectRow(uploadURL))?.status).not.toBe("ready");
      expect((await setAcl(ctx, owner, uploadURL)).statusCode).toBe(200);
      // Even once it is ready, it stays the owner's.
      expect((await setAcl(ctx, other, uploadURL)).statusCode).toBe(400);
    });

    it("never lets an upload URL change a checked object", async () => {
      const cookie = await adminCookie();
      const uploadURL = await issue(cookie, "thumbnail", "image/png", png.length);
      await putUpload(ctx, cookie, uploadURL, png, "image/png");
      expect((await setAcl(ctx, cookie, uploadURL)).statusCode).toBe(200);
      // The same length, so even a store that enforces the signed length would take it.
      const swapped = Buffer.alloc(png.length, 0x20);
      html.copy(swapped);
      const again = await putUpload(ctx, cookie, uploadURL, swapped, "image/png");
      // Local: the upload route takes bytes once. S3: the URL only reaches a staging key.
      if (storeKind === "local") expect(again.statusCode).toBe(404);
      expect((await setAcl(ctx, cookie, uploadURL)).statusCode).toBe(200);
      const served = await download(ctx, pathOfUploadUrl(uploadURL), { cookie });
      expect(served.statusCode).toBe(200);
      expect(served.body.equals(png)).toBe(true);
    });
  });

  describe("serving objects", () => {
    it("answers Range requests with 206, Content-Range, ETag, Accept-Ranges and nosniff", async () => {
      const cookie = await adminCookie();
      const video = await uploadObject(ctx, cookie, { kind: "video" });

      const ranged = await download(ctx, video, { cookie, range: "bytes=100-199" });
      expect(ranged.portal.headers["x-content-type-options"]).toBe("nosniff");
      if (storeKind === "s3") {
        // The portal checks access, then redirects to a short-lived presigned URL.
        expect(ranged.portal.statusCode).toBe(302);
        const location = String(ranged.portal.headers.location);
        expect(location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/credo-test\/uploads\//);
        expect(location).toContain("X-Amz-Signature=");
        expect(location).toContain("X-Amz-Expires=300");
      } else {
        expect(ranged.portal.statusCode).toBe(206);
        expect(ranged.headers["x-content-type-options"]).toBe("nosniff");
      }
      expect(ranged.statusCode).toBe(206);
      expect(ranged.headers["content-range"]).toBe(`bytes 100-199/${mp4.length}`);
      expect(ranged.headers["accept-ranges"]).toBe("bytes");
      expect(ranged.headers.etag).toBeTruthy();
      expect(ranged.headers["content-type"]).toBe("video/mp4");
      expect(ranged.body.equals(mp4.subarray(100, 200))).toBe(true);

      const whole = await download(ctx, video, { cookie });
      expect(whole.statusCode).toBe(200);
      // s3rver (unlike S3) announces Accept-Ranges only on partial answers.
      if (storeKind === "local") expect(whole.headers["accept-ranges"]).toBe("bytes");
      expect(whole.body.equals(mp4)).toBe(true);

      if (storeKind === "local") {
        // Suffix ranges (what players ask for to find an MP4's index); s3rver mishandles them.
        const tail = await download(ctx, video, { cookie, range: "bytes=-50" });
        expect(tail.statusCode).toBe(206);
        expect(tail.body.equals(mp4.subarray(mp4.length - 50))).toBe(true);
      }

      const cached = await download(ctx, video, {
        cookie,
        "if-none-match": whole.headers.etag ?? "",
      });
      expect(cached.statusCode).toBe(304);
    });

    it("serves a thumbnail as its checked type, never as something a browser would run", async () => {
      const cookie = await adminCookie();
      const thumbnail = await uploadObject(ctx, cookie, { kind: "thumbnail" });
      const served = await download(ctx, thumbnail, { cookie });
      expect(served.statusCode).toBe(200);
      expect(served.headers["content-type"]).toBe("image/png");
      expect(served.portal.headers["x-content-type-options"]).toBe("nosniff");
      expect(served.portal.headers["content-disposition"]).toBe("inline");
    });

    it("serves a published course's image to anyone, and nothing of other courses", async () => {
      const cookie = await adminCookie();
      const thumbnail = await uploadObject(ctx, cookie, { kind: "thumbnail" });
      const video = await uploadObject(ctx, cookie, { kind: "video" });
      const course = await createCourse(ctx, cookie, { thumbnail });
      expect((await postModule(ctx, cookie, course.id, validModule(video))).statusCode).toBe(201);
      const bare = await createCourse(ctx, cookie);
      expect((await postModule(ctx, cookie, bare.id, validModule(video, 2))).statusCode).toBe(201);
      await publish(ctx, cookie, bare.id);
      const image = courseImagePath(course.id);

      // A draft's image is not public yet.
      expect((await download(ctx, image)).statusCode).toBe(404);
      await publish(ctx, cookie, course.id);

      const served = await download(ctx, image);
      expect(served.statusCode).toBe(200);
      expect(served.body.equals(png)).toBe(true);
      expect(served.headers["content-type"]).toBe("image/png");
      expect(served.portal.headers["x-content-type-options"]).toBe("nosniff");
      if (storeKind === "s3") {
        expect(served.portal.statusCode).toBe(302);
      } else {
        expect(served.portal.headers["cache-control"]).toBe("public, max-age=300");
        const cached = await download(ctx, image, { "if-none-match": served.headers.etag ?? "" });
        expect(cached.statusCode).toBe(304);
      }
      for (const url of [courseImagePath(bare.id), courseImagePath("no-such-course")]) {
        const missing = await ctx.app.inject({ method: "GET", url });
        expect(missing.statusCode, url).toBe(404);
        expect(missing.json()).toMatchObject({ code: "objects.not_found" });
      }
    });

    it("answers 404 for unknown, pending and refused objects", async () => {
      const cookie = await adminCookie();
      const pending = await issue(cookie, "video", "video/mp4", mp4.length);
      const refused = await issue(cookie, "thumbnail", "image/png", html.length);
      await uploadRefused(cookie, refused, html, "image/png");
      for (const url of [
        "/objects/uploads/AAAAAAAAAAAAAAAAAAAAAAAA",
        pathOfUploadUrl(pending),
        pathOfUploadUrl(refused),
      ]) {
        const response = await ctx.app.inject({ method: "GET", url, headers: { cookie } });
        expect(response.statusCode, url).toBe(404);
        expect(response.json()).toEqual({ message: expect.any(String), code: "objects.not_found" });
      }
    });
  });

  describe("path traversal", () => {
    const attempts = [
      "/objects/uploads/..%2F..%2Fetc%2Fpasswd",
      "/objects/uploads/..%2F..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd",
      "/objects/uploads/..%2F..%2Fpackage.json",
      "/objects/uploads/%2e%2e%2f%2e%2e%2fpackage.json",
      "/objects/uploads/%2E%2E%2F%2E%2E%2F%2E%2E%2Fpackage.json",
      "/objects/uploads/..%5C..%5Cpackage.json",
      "/objects/uploads/%2e%2e%5c%2e%2e%5c%2e%2e%5cpackage.json",
      "/objects/uploads/..%255C..%255Cpackage.json",
      "/objects/uploads/%252e%252e%252f%252e%252e%252fpackage.json",
      "/objects/uploads/....%2F%2F....%2F%2Fpackage.json",
      "/objects/uploads/%00",
      "/objects/uploads/AAAAAAAAAAAAAAAAAAAAAAAA%00.png",
      "/objects/uploads/AAAAAAAAAAAAAAAAAAAAAAAA.part",
      "/objects/uploads/%2Fetc%2Fpasswd",
    ];

    function expectNoLeak(status: number, body: string, label: string) {
      expect(status, label).toBeGreaterThanOrEqual(400);
      expect(status, label).toBeLessThan(500);
      for (const secret of SECRETS) expect(body, label).not.toMatch(secret);
      expect(body, label).not.toContain(packageJson.slice(0, 200));
    }

    it("refuses traversal in object paths with 4xx, signed in or not", async () => {
      const cookie = await adminCookie();
      await uploadObject(ctx, cookie, { kind: "video" });
      for (const url of attempts) {
        for (const headers of [{ cookie }, {}]) {
          const response = await ctx.app.inject({ method: "GET", url, headers });
          expectNoLeak(response.statusCode, response.body, url);
          expect(response.headers.location, url).toBeUndefined();
        }
      }
    });

    it("refuses traversal in the upload target and leaves nothing outside the store", async () => {
      const cookie = await adminCookie();
      for (const url of [
        "/api/objects/upload/..%2Fx",
        "/api/objects/upload/..%2F..%2F..%2Fpackage.json",
        "/api/objects/upload/..%5C..%5Cevil",
        "/api/objects/upload/%2e%2e%2fAAAAAAAAAAAAAAAAAAAAAAAA",
      ]) {
        const response = await ctx.app.inject({
          method: "PUT",
          url,
          headers: { cookie, "content-type": "image/png" },
          payload: png,
        });
        expectNoLeak(response.statusCode, response.body, url);
      }
      expect((await snapshot(ctx)).objects).toEqual([]);
      // Nothing was written beside or above the store's directory.
      expect(readdirSync(ctx.dataDir)).not.toContain("x");
      expect(readdirSync(ctx.dataDir)).not.toContain("evil");
    });

    it("refuses raw, unnormalised traversal paths on a real socket", async () => {
      const cookie = await adminCookie();
      await uploadObject(ctx, cookie, { kind: "thumbnail" });
      const address = await listening();
      const raw = [
        "/objects/uploads/../../package.json",
        "/objects/uploads/../../../../../../etc/passwd",
        "/objects/uploads/..\\..\\package.json",
        "/objects/uploads/%2e%2e/%2e%2e/package.json",
        "/objects/../package.json",
        "/objects/uploads/AAAAAAAAAAAAAAAAAAAAAAAA/../../../package.json",
        "/objects/uploads/..%2F..%2Fetc%2Fpasswd",
      ];
      for (const path of raw) {
        for (const withCookie of [true, false]) {
          const { status, body } = await rawRequest(address, "GET", path, withCookie ? cookie : "");
          expectNoLeak(status, body, `${path} ${withCookie ? "admin" : "anonymous"}`);
        }
      }
      const put = await rawRequest(address, "PUT", "/api/objects/upload/../../x", cookie);
      expectNoLeak(put.status, put.body, "PUT /api/objects/upload/../../x");
    });
  });

  /** Starts listening once per app (on a free port of 127.0.0.1) for raw-socket tests. */
  async function listening(): Promise<{ port: number }> {
    if (!ctx.app.server.listening) await ctx.app.listen({ host: "127.0.0.1", port: 0 });
    const address = ctx.app.server.address();
    if (!address || typeof address === "string") throw new Error("not listening");
    return { port: address.port };
  }
});

/**
 * Sends a request line exactly as written: fetch and app.inject normalise '..' away,
 * an attacker's client does not.
 */
function rawRequest(
  address: { port: number },
  method: string,
  path: string,
  cookie: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(address.port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text });
    });
    const body = method === "PUT" ? "0123456789" : "";
    socket.write(
      [
        `${method} ${path} HTTP/1.1`,
        "Host: 127.0.0.1",
        ...(cookie ? [`Cookie: ${cookie}`] : []),
        ...(body ? ["Content-Type: image/png", `Content-Length: ${body.length}`] : []),
        "Connection: close",
        "",
        body,
      ].join("\r\n"),
    );
  });
}
