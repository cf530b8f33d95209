import { rm } from "node:fs/promises";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
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
