import { rm } from "node:fs/promises";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import type { Module } from "../../../contract";
import { addModule, createCourse, validModule } from "../../testing/courses";
import { buildAdmin, signIn } from "../../testing/factories";
import {
  download,
  isStored,
  objectIdOf,
  STORE_KINDS,
  useTestAppWithStore,
} from "../../testing/object-stores";
import { fixture, putUpload, requestUpload, setAcl, uploadObject } from "../../testing/uploads";
import { objects } from "./objects.table";

const mp4 = fixture("sample-video.mp4");

describe.each(STORE_KINDS)("an uploaded object stays whole (%s object store)", (storeKind) => {
  const ctx = useTestAppWithStore(storeKind);

  it("answers a set-acl sent several times at once with one object path, and keeps the object", async () => {
    const cookie = await signIn(ctx, await buildAdmin(ctx));
    const requested = await requestUpload(ctx, cookie, {
      kind: "video",
      contentType: "video/mp4",
      size: mp4.length,
    });
    const { uploadURL } = requested.json() as { uploadURL: string };
    expect((await putUpload(ctx, cookie, uploadURL, mp4, "video/mp4")).statusCode).toBe(200);

    // A double click, or a retry of a request whose answer was lost, while the first runs.
    const answers = await Promise.all([1, 2, 3, 4].map(() => setAcl(ctx, cookie, uploadURL)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    const paths = new Set(answers.map((a) => (a.json() as { objectPath: string }).objectPath));
    expect(paths.size).toBe(1);
    const [objectPath] = [...paths] as [string];

    expect(await isStored(ctx, objectPath)).toBe(true);
    const [row] = await ctx.database.db
      .select()
      .from(objects)
      .where(eq(objects.id, objectIdOf(objectPath)));
    expect(row?.status).toBe("ready");
    const served = await download(ctx, objectPath, { cookie });
    expect(served.statusCode).toBe(200);
    expect(served.body.equals(mp4)).toBe(true);
  });

  it("answers 404, never 500, for an object whose bytes are gone from the store", async () => {
    const cookie = await signIn(ctx, await buildAdmin(ctx));
    const video = await uploadObject(ctx, cookie, { kind: "video" });
    // Removed beneath the portal: by hand, or a restore of the database without its files.
    if (storeKind === "local") await rm(join(ctx.dataDir, "objects", objectIdOf(video)));
    else await ctx.store.delete(objectIdOf(video));
    for (const range of [undefined, "bytes=0-99"]) {
      const served = await download(ctx, video, { cookie, ...(range ? { range } : {}) });
      expect(served.portal.statusCode, served.portal.body).not.toBe(500);
      expect(served.statusCode).toBe(404);
    }
  });
});

describe("a module's video while two edits of the module cross", () => {
  const ctx = useTestAppWithStore("local");

  it("never keeps a video that an edit saved a moment earlier replaced and deleted", async () => {
    const cookie = await signIn(ctx, await buildAdmin(ctx));
    const first = await uploadObject(ctx, cookie, { kind: "video" });
    const second = await uploadObject(ctx, cookie, { kind: "video" });
    const course = await createCourse(ctx, cookie);
    const added = await addModule(ctx, cookie, course.id, validModule(first, 1));
    const edit = (payload: Record<string, unknown>) =>
      ctx.app.inject({
        method: "PUT",
        url: `/api/courses/${course.id}/modules/${added.id}`,
        headers: { cookie },
        payload,
      });

    // One administrator renames the module, the form still showing the first video. Another
    // replaces the video just after the rename read the module and before it locked the
    // course (on PostgreSQL, or with several instances, nothing keeps them apart).
    const { db } = ctx.database;
    const transaction = db.transaction.bind(db);
    let replaced: Awaited<ReturnType<typeof edit>> | undefined;
    const spy = vi.spyOn(db, "transaction").mockImplementationOnce(async (...args) => {
      replaced = await edit({ ...validModule(second, 1) });
      return transaction(...args);
    });
    const renamed = await edit({ ...validModule(first, 1), title: "Renamed" });
    spy.mockRestore();
    expect(replaced?.statusCode, replaced?.body).toBe(200);
    expect(await isStored(ctx, first)).toBe(false);

    // The rename, made against a video that is no longer the module's, is refused.
    expect(renamed.statusCode, renamed.body).toBe(409);
    expect(renamed.json().code).toBe("courses.module_changed");
    const read = await ctx.app.inject({
      method: "GET",
      url: `/api/courses/${course.id}`,
      headers: { cookie },
    });
    const [module] = (read.json() as { modules: Module[] }).modules;
    expect(module?.videoUrl).toBe(second);
    const played = await download(ctx, second, { cookie });
    expect(played.statusCode).toBe(200);
  });

  it("never keeps a thumbnail that an edit saved a moment earlier replaced and deleted", async () => {
    const cookie = await signIn(ctx, await buildAdmin(ctx));
    const first = await uploadObject(ctx, cookie, { kind: "thumbnail" });
    const second = await uploadObject(ctx, cookie, { kind: "thumbnail" });
    const course = await createCourse(ctx, cookie, { thumbnail: first });
    const edit = (payload: Record<string, unknown>) =>
      ctx.app.inject({
        method: "PUT",
        url: `/api/courses/${course.id}`,
        headers: { cookie },
        payload: {
          title: course.title,
          description: course.description,
          category: course.category,
          duration: course.duration,
          ...payload,
        },
      });

    // A rename sends back the thumbnail its form showed; another edit replaces it between the
    // rename's read of the course and its lock.
    const { db } = ctx.database;
    const transaction = db.transaction.bind(db);
    let replaced: Awaited<ReturnType<typeof edit>> | undefined;
    const spy = vi.spyOn(db, "transaction").mockImplementationOnce(async (...args) => {
      replaced = await edit({ thumbnail: second });
      return transaction(...args);
    });
    const renamed = await edit({ title: "Renamed", thumbnail: first });
    spy.mockRestore();
    expect(replaced?.statusCode, replaced?.body).toBe(200);
    expect(await isStored(ctx, first)).toBe(false);

    expect(renamed.statusCode, renamed.body).toBe(409);
    expect(renamed.json().code).toBe("courses.thumbnail_changed");
    const read = await ctx.app.inject({
      method: "GET",
      url: `/api/courses/${course.id}`,
      headers: { cookie },
    });
    expect(read.json()).toMatchObject({ title: course.title, thumbnail: second });
  });
});
