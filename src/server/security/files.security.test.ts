import { readdirSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { THUMBNAIL_MAX_BYTES, VIDEO_MAX_BYTES } from "../../contract";
import { objects } from "../platform/objects/objects.table";
import { createLocalDiskStore } from "../storage/local-disk";
import { createCourse, postCourse, postModule, validModule } from "../testing/courses";
import { quickAdmin, useSharedVideo } from "../testing/learning";
import { useTestApp } from "../testing/test-app";
import { fixture, putUpload, requestUpload, setAcl, uploadObject } from "../testing/uploads";
import { expectRefusal, expectUnchanged, sessionCookie, snapshotAll } from "./support";

const png = fixture("sample-thumbnail.png");
const script = "<script>fetch('/api/auth/me').then(r=>r.text()).then(t=>alert(t))</script>";

describe("file attacks", () => {
  const ctx = useTestApp();
  const videoPath = useSharedVideo(ctx);
  const storedFiles = () => {
    try {
      return readdirSync(join(ctx.dataDir, "objects"));
    } catch {
      return [];
    }
  };

  async function adminCookie() {
    return sessionCookie(ctx, await quickAdmin(ctx));
  }

  async function issue(cookie: string, kind: "thumbnail" | "video", type: string, size: number) {
    const response = await requestUpload(ctx, cookie, { kind, contentType: type, size });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().uploadURL as string;
  }

  const idOf = (uploadURL: string) => uploadURL.split("/").pop()!;
  const statusOf = async (uploadURL: string) => {
    const [row] = await ctx.database.db
      .select()
      .from(objects)
      .where(eq(objects.id, idOf(uploadURL)));
    return row?.status;
  };

  it("refuses markup disguised as images or videos by its bytes; none becomes usable", async () => {
    const cookie = await adminCookie();
    const filesBefore = storedFiles();
    const disguised: [string, "thumbnail" | "video", string, Buffer][] = [
      [
        "HTML with a byte-order mark",
        "thumbnail",
        "image/png",
        Buffer.from(`\ufeff<html>${script}`),
      ],
      [
        "HTML after blank lines",
        "thumbnail",
        "image/jpeg",
        Buffer.from(`\n\n  <!DOCTYPE html>${script}`),
      ],
      [
        "SVG with onload",
        "thumbnail",
        "image/webp",
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      ],
      [
        "XML with a stylesheet",
        "thumbnail",
        "image/gif",
        Buffer.from('<?xml version="1.0"?><?xml-stylesheet href="x.xsl"?><a/>'),
      ],
      ["HTML as a video", "video", "video/webm", Buffer.from(`<html>${script}`)],
      [
        "a PDF as a video",
        "video",
        "video/quicktime",
        Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\n"),
      ],
    ];
    for (const [name, kind, type, bytes] of disguised) {
      const uploadURL = await issue(cookie, kind, type, bytes.length);
      const put = await putUpload(ctx, cookie, uploadURL, bytes, type);
      expect(put.statusCode, name).toBe(415);
      expect((await setAcl(ctx, cookie, uploadURL)).statusCode, name).toBe(409);
      expect(await statusOf(uploadURL), name).toBe("rejected");
      const served = await ctx.app.inject({
        method: "GET",
        url: `/objects/uploads/${idOf(uploadURL)}`,
        headers: { cookie },
      });
      expectRefusal(served, 404, name);
      expect(
        (await postCourse(ctx, cookie, { thumbnail: `/objects/uploads/${idOf(uploadURL)}` }))
          .statusCode,
      ).toBe(400);
    }
    expect(storedFiles()).toEqual(filesBefore);
  });

  it("refuses markup types at the request, recording nothing", async () => {
    const cookie = await adminCookie();
    const before = await snapshotAll(ctx);
    for (const [kind, type] of [
      ["thumbnail", "image/svg+xml"],
      ["thumbnail", "text/html"],
      ["thumbnail", "application/xhtml+xml"],
      ["video", "text/html"],
      ["video", "image/png"],
      ["thumbnail", "video/mp4"],
    ] as const) {
      const response = await requestUpload(ctx, cookie, { kind, contentType: type, size: 100 });
      expectRefusal(response, 415, `${kind} ${type}`);
    }
    await expectUnchanged(ctx, before);
  });

  it("serves an image/HTML polyglot only as the image it claims to be", async () => {
    const cookie = await adminCookie();
    const polyglot = Buffer.concat([png, Buffer.from(`<html><body>${script}</body></html>`)]);
    const path = await uploadObject(ctx, cookie, { kind: "thumbnail", bytes: polyglot });
    const served = await ctx.app.inject({ method: "GET", url: path, headers: { cookie } });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.headers["content-disposition"]).toBe("inline");
    expect(String(served.headers["content-security-policy"])).toMatch(/sandbox/);
  });

  it("never serves an object inline unless its checked type is an image or a video", async () => {
    const cookie = await adminCookie();
    // A row as an older version (or a bug) might have left it: the serving route decides.
    const id = "LegacyHtmlObject00000000";
    const store = createLocalDiskStore(join(ctx.dataDir, "objects"));
    const html = Buffer.from(`<!doctype html>${script}`);
    await store.write(id, Readable.from([html]), {
      maxBytes: html.length,
      contentType: "text/html",
    });
    await ctx.database.db.insert(objects).values({
      id,
      kind: "thumbnail",
      fileName: "page.html",
      declaredType: "text/html",
      declaredSize: html.length,
      contentType: "text/html",
      size: html.length,
      status: "ready",
    });
    const served = await ctx.app.inject({
      method: "GET",
      url: `/objects/uploads/${id}`,
      headers: { cookie },
    });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-disposition"]).toBe("attachment");
    expect(served.headers["content-type"]).toBe("application/octet-stream");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(String(served.headers["content-security-policy"])).toMatch(
      /default-src 'none'.*sandbox/,
    );
    await store.delete(id);
  });

  it("refuses sizes over the limits at the request, before any byte arrives", async () => {
    const cookie = await adminCookie();
    const filesBefore = storedFiles();
    const before = await snapshotAll(ctx);
    const attempts: ["thumbnail" | "video", string, number, number][] = [
      ["thumbnail", "image/png", THUMBNAIL_MAX_BYTES + 1, 413],
      ["video", "video/mp4", VIDEO_MAX_BYTES + 1, 413],
      ["video", "video/mp4", Number.MAX_SAFE_INTEGER, 413],
      ["video", "video/mp4", 1e300, 400],
      ["thumbnail", "image/png", 0, 400],
      ["thumbnail", "image/png", -1, 400],
      ["thumbnail", "image/png", 1.5, 400],
    ];
    for (const [kind, type, size, status] of attempts) {
      const response = await requestUpload(ctx, cookie, { kind, contentType: type, size });
      expectRefusal(response, status, `${kind} ${size}`);
    }
    await expectUnchanged(ctx, before);
    expect(storedFiles()).toEqual(filesBefore);
  });

  it("stops an upload that sends more than it declared: 413, and nothing left on disk", async () => {
    const cookie = await adminCookie();
    const uploadURL = await issue(cookie, "video", "video/mp4", 1000);
    const filesBefore = storedFiles();
    const address = await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    let produced = 0;
    const chunk = Buffer.alloc(1024 * 1024, 0x41);
    // 256 MB announced as a 1000-byte upload, made only as fast as the socket takes it.
    const body = new Readable({
      read() {
        if (produced >= 256 * chunk.length) return this.push(null);
        produced += chunk.length;
        this.push(chunk);
      },
    });
    const result = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = httpRequest(`${address}${uploadURL}`, {
        method: "PUT",
        headers: { cookie, "content-type": "video/mp4", connection: "close" },
        agent: false,
      });
      request.on("response", (response) => {
        let text = "";
        response.on("data", (d) => {
          text += d;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
        // The browser gives up on the rest once the answer is in.
        body.unpipe(request);
        body.destroy();
        request.end();
      });
      request.on("error", reject);
      body.pipe(request);
    });
    expect(result.status).toBe(413);
    expect(JSON.parse(result.text)).toEqual({
      message: expect.stringMatching(/larger/),
      code: "uploads.larger_than_declared",
    });
    expect(produced).toBeLessThan(64 * chunk.length);
    expect(await statusOf(uploadURL)).toBe("rejected");
    expect(storedFiles()).toEqual(filesBefore);
  });

  it("accepts only object keys the server generated for this upload", async () => {
    const cookie = await adminCookie();
    const video = await videoPath(cookie);
    const course = await createCourse(ctx, cookie);
    const before = await snapshotAll(ctx);
    const filesBefore = storedFiles();
    // Bytes to a key the server never issued, or an already-used one.
    for (const id of ["ChosenByTheAttacker00001", video.split("/").pop()!]) {
      const put = await putUpload(ctx, cookie, `/api/objects/upload/${id}`, png, "image/png");
      expect(put.statusCode, id).toBe(404);
    }
    for (const objectURL of [
      "https://evil.example/api/objects/upload/AAAAAAAAAAAAAAAAAAAAAAAA",
      "/objects/uploads/../../../etc/passwd",
      "javascript:alert(1)",
      "/api/objects/upload/AAAAAAAAAAAAAAAAAAAAAAAA",
    ]) {
      expectRefusal(await setAcl(ctx, cookie, objectURL), 400, objectURL);
    }
    for (const path of [
      "https://evil.example/cat.png",
      "javascript:alert(document.cookie)",
      "data:image/svg+xml,<svg onload=alert(1)>",
      "/objects/uploads/../../package.json",
      "//evil.example/objects/uploads/AAAAAAAAAAAAAAAAAAAAAAAA",
    ]) {
      expectRefusal(await postCourse(ctx, cookie, { thumbnail: path }), 400, path);
      const module = { ...validModule(path, 77), videoUrl: path };
      expectRefusal(await postModule(ctx, cookie, course.id, module), 400, path);
    }
    await expectUnchanged(ctx, before);
    expect(storedFiles()).toEqual(filesBefore);
  });

  it("refuses an upload PUT from a foreign origin, storing nothing", async () => {
    const cookie = await adminCookie();
    const uploadURL = await issue(cookie, "thumbnail", "image/png", png.length);
    const filesBefore = storedFiles();
    const before = await snapshotAll(ctx);
    const response = await ctx.app.inject({
      method: "PUT",
      url: uploadURL,
      headers: { cookie, "content-type": "image/png", origin: "https://evil.example" },
      payload: png,
    });
    expectRefusal(response, 403);
    await expectUnchanged(ctx, before);
    expect(storedFiles()).toEqual(filesBefore);
  });
});
