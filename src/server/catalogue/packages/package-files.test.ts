import { describe, expect, it } from "vitest";
import type { PackagePreview } from "../../../contract";
import { createCourse, moduleId, postModule } from "../../testing/courses";
import { call, quickAdmin, signInAs } from "../../testing/learning";
import { STORE_KINDS, useTestAppWithStore } from "../../testing/object-stores";
import { uploadObject } from "../../testing/uploads";
import { scormZip } from "../../testing/zips";

describe.each(STORE_KINDS)("a package's files on the content origin (%s store)", (kind) => {
  const ctx = useTestAppWithStore(kind);

  async function preview(extra: Parameters<typeof scormZip>[0] = []) {
    const admin = await signInAs(ctx, await quickAdmin(ctx));
    const course = await createCourse(ctx, admin);
    const path = await uploadObject(ctx, admin, { kind: "package", bytes: scormZip(extra) });
    const added = await postModule(ctx, admin, course.id, {
      id: moduleId(1),
      title: "Module 1",
      description: "",
      duration: 10,
      kind: "scorm",
      packagePath: path,
    });
    expect(added.statusCode, added.body).toBe(201);
    const answer = await call(
      ctx,
      "GET",
      `/api/courses/${course.id}/modules/${moduleId(1)}/package/preview`,
      { cookie: admin },
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const { contentBase } = answer.json() as PackagePreview;
    const base = new URL(contentBase);
    return (rest: string, headers: Record<string, string> = {}) =>
      ctx.app.content.inject({
        method: "GET",
        url: `${base.pathname}${rest}`,
        headers: { host: base.host, ...headers },
      });
  }

  it("answers 404, not 500, for a file name longer than any file of a package may have", async () => {
    const get = await preview();
    expect((await get("index.html")).statusCode).toBe(200);
    const long = await get(`${"a".repeat(300)}.html`);
    expect(long.statusCode, long.body).toBe(404);
  });

  it("serves a package's video in ranges, as a browser asks to seek it", async () => {
    const movie = Buffer.alloc(4096, 7);
    const get = await preview([{ name: "media/movie.mp4", data: movie, method: "store" }]);
    const part = await get("media/movie.mp4", { range: "bytes=0-99" });
    expect({ status: part.statusCode, length: part.rawPayload.length }).toEqual({
      status: 206,
      length: 100,
    });
    expect(part.headers["content-range"]).toBe("bytes 0-99/4096");
    expect(part.headers["content-type"]).toBe("video/mp4");

    const answers = async (range: string) => {
      const r = await get("media/movie.mp4", { range });
      return [r.statusCode, r.headers["content-range"], r.rawPayload.length];
    };
    expect(await answers("bytes=4000-")).toEqual([206, "bytes 4000-4095/4096", 96]);
    expect(await answers("bytes=-10")).toEqual([206, "bytes 4086-4095/4096", 10]);
    expect(await answers("bytes=4090-9999")).toEqual([206, "bytes 4090-4095/4096", 6]);
    expect(await answers("bytes=5000-")).toEqual([416, "bytes */4096", 0]);
    // Several ranges, or none this reads: the whole file.
    expect(await answers("bytes=0-1,5-6")).toEqual([200, undefined, 4096]);
    const whole = await get("media/movie.mp4");
    expect([whole.statusCode, whole.headers["accept-ranges"]]).toEqual([200, "bytes"]);
    expect((await get("media/missing.mp4", { range: "bytes=0-1" })).statusCode).toBe(404);
  });
});
