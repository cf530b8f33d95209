import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { addModule, createCourse, validModule } from "../../testing/courses";
import { buildAdmin, signIn } from "../../testing/factories";
import {
  download,
  STORE_KINDS,
  type StoreTestContext,
  useTestAppWithStore,
} from "../../testing/object-stores";
import { fixture, putUpload, requestUpload, setAcl, uploadObject } from "../../testing/uploads";
import { createObjectsSweeper, startObjectsSweeper } from "./objects.sweeper";
import { objects } from "./objects.table";

const png = fixture("sample-thumbnail.png");
const mp4 = fixture("sample-video.mp4");
const html = Buffer.from("<!doctype html><html><body>not an image</body></html>\n");
const idOf = (url: string) => new URL(url, "http://x").pathname.split("/").pop()!;
/** A moment after everything the test created: a zero age then covers all of it. */
const later = () => new Date(Date.now() + 5_000);

describe.each(STORE_KINDS)("abandoned upload sweeper (%s object store)", (storeKind) => {
  const ctx: StoreTestContext = useTestAppWithStore(storeKind);
  const sweeper = () => createObjectsSweeper({ database: ctx.database, store: ctx.store });

  async function issue(cookie: string, kind: "thumbnail" | "video", type: string, size: number) {
    const response = await requestUpload(ctx, cookie, { kind, contentType: type, size });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().uploadURL as string;
  }
  const statusOf = async (url: string) =>
    (
      await ctx.database.db
        .select()
        .from(objects)
        .where(eq(objects.id, idOf(url)))
    )[0]?.status;
  const leftovers = async () => {
    const names: string[] = [];
    for await (const name of ctx.store.listLeftovers(later())) names.push(name);
    return names;
  };

  /** One upload in every unfinished state, and two ready videos (one used by a course). */
  async function abandonEverything(cookie: string) {
    const neverSent = await issue(cookie, "video", "video/mp4", mp4.length);
    const short = await issue(cookie, "video", "video/mp4", mp4.length);
    const notConfirmed = await issue(cookie, "video", "video/mp4", mp4.length);
    const refused = await issue(cookie, "thumbnail", "image/png", html.length);
    if (storeKind === "local") {
      const cut = await putUpload(ctx, cookie, short, mp4.subarray(0, 1000), "video/mp4");
      expect(cut.statusCode).toBe(400);
      expect((await putUpload(ctx, cookie, refused, html, "image/png")).statusCode).toBe(415);
    } else {
      // What a lenient S3-compatible store keeps of a cut-off PUT: fewer bytes than declared.
      await ctx.store.write(idOf(short), Readable.from([mp4.subarray(0, 1000)]), {
        maxBytes: mp4.length,
        contentType: "video/mp4",
      });
      expect((await setAcl(ctx, cookie, short)).statusCode).toBe(409);
      expect((await putUpload(ctx, cookie, refused, html, "image/png")).statusCode).toBe(200);
      expect((await setAcl(ctx, cookie, refused)).statusCode).toBe(415);
    }
    expect((await putUpload(ctx, cookie, notConfirmed, mp4, "video/mp4")).statusCode).toBe(200);
    const used = await uploadObject(ctx, cookie, { kind: "video" });
    const course = await createCourse(ctx, cookie);
    await addModule(ctx, cookie, course.id, validModule(used));
    const unattached = await uploadObject(ctx, cookie, { kind: "video" });
    return { unfinished: [neverSent, short, notConfirmed, refused], used, unattached };
  }

  it("deletes unfinished uploads past the age with their bytes; ready objects stay", async () => {
    const cookie = await signIn(ctx, await buildAdmin(ctx));
    const { unfinished, used, unattached } = await abandonEverything(cookie);
    expect(await statusOf(unfinished[3]!)).toBe("rejected");
    expect(await statusOf(unfinished[0]!)).toBe("pending");

    expect(await sweeper().sweep({ maxAgeMs: 0, now: later() })).toEqual({
      uploads: 4,
      leftovers: 0,
    });
    for (const url of unfinished) {
      expect(await statusOf(url)).toBeUndefined();
      expect(await ctx.store.stat(idOf(url))).toBeNull();
      // Gone for good: its URL can neither be sent again nor confirmed.
      expect((await setAcl(ctx, cookie, url)).statusCode).toBe(400);
    }
    expect(await leftovers()).toEqual([]);
    for (const path of [used, unattached]) {
      const served = await download(ctx, path, { cookie });
      expect(served.statusCode).toBe(200);
      expect(served.body.equals(mp4)).toBe(true);
    }
  });

  it("leaves uploads younger than the age alone (a day by default)", async () => {
    const cookie = await signIn(ctx, await buildAdmin(ctx));
    const { unfinished } = await abandonEverything(cookie);
    expect(await sweeper().sweep()).toEqual({ uploads: 0, leftovers: 0 });
    expect(await sweeper().sweep({ maxAgeMs: 60_000 })).toEqual({ uploads: 0, leftovers: 0 });
    for (const url of unfinished) expect(await statusOf(url)).toBeDefined();
    // A day later they are abandoned.
    const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000 + 5_000);
    expect((await sweeper().sweep({ now: tomorrow }))?.uploads).toBe(4);
  });

  it("deletes stale store leftovers without a row, never a stored object", async () => {
    const kept = "KePtObJeCtWiThOuTaRoW012";
    await ctx.store.write(kept, Readable.from([png]), { maxBytes: png.length, contentType: "x" });
    const stale = "StAlEuPlOaDlEfToVeR01234";
    const fresh = "FrEsHuPlOaDiNpRoGrEsS123";
    if (storeKind === "local") {
      // What a crash in the middle of a write leaves: temp files nobody will rename.
      const root = join(ctx.dataDir, "objects");
      mkdirSync(root, { recursive: true });
      writeFileSync(join(root, `${stale}.0123456789ab.part`), "partial");
      const old = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
      utimesSync(join(root, `${stale}.0123456789ab.part`), old, old);
      writeFileSync(join(root, `${fresh}.ba9876543210.part`), "still arriving");
      expect(await sweeper().sweep()).toEqual({ uploads: 0, leftovers: 1 });
      expect(await leftovers()).toEqual([`${fresh}.ba9876543210.part`]);
    } else {
      // A browser PUT to incoming/ whose row is gone (or that came again after set-acl).
      const url = await ctx.store.createUploadUrl(stale, {
        contentType: "image/png",
        size: png.length,
        expiresInSeconds: 60,
      });
      const put = await fetch(url!, {
        method: "PUT",
        body: new Uint8Array(png),
        headers: { "content-type": "image/png" },
      });
      expect(put.status).toBe(200);
      expect(await sweeper().sweep()).toEqual({ uploads: 0, leftovers: 0 });
      expect(await sweeper().sweep({ maxAgeMs: 0, now: later() })).toEqual({
        uploads: 0,
        leftovers: 1,
      });
      expect(await leftovers()).toEqual([]);
    }
    expect(await ctx.store.stat(kept)).toEqual({ size: png.length });
    await ctx.store.delete(kept);
  });

  it("runs on its own every interval and stops cleanly", async () => {
    const cookie = await signIn(ctx, await buildAdmin(ctx));
    const url = await issue(cookie, "thumbnail", "image/png", png.length);
    // The store tells when the sweep has deleted the upload's bytes (its row goes next).
    let bytesDeleted = () => {};
    const deleting = new Promise<void>((resolve) => {
      bytesDeleted = resolve;
    });
    const store: typeof ctx.store = Object.create(ctx.store, {
      delete: {
        value: async (id: string) => {
          await ctx.store.delete(id);
          bytesDeleted();
        },
      },
    });
    // The test moves the sweeper's clock: nothing happens before one interval has passed.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const stop = startObjectsSweeper({
        database: ctx.database,
        store,
        intervalMs: 60_000,
        maxAgeMs: 0,
      });
      vi.advanceTimersByTime(59_999);
      expect(await statusOf(url)).toBe("pending");
      vi.advanceTimersByTime(1);
      await deleting;
      // Stopping waits for the sweep in progress to finish.
      await stop();
    } finally {
      vi.useRealTimers();
    }
    expect(await statusOf(url)).toBeUndefined();
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    "lets one instance sweep at a time on PostgreSQL (an advisory lock)",
    async () => {
      const cookie = await signIn(ctx, await buildAdmin(ctx));
      const url = await issue(cookie, "thumbnail", "image/png", png.length);
      // Another instance holds the lock: this one skips and deletes nothing.
      await ctx.database.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(7311080)`);
        expect(await sweeper().sweep({ maxAgeMs: 0, now: later() })).toBeNull();
      });
      expect(await statusOf(url)).toBe("pending");
      const results = await Promise.all(
        [0, 1, 2].map(() => sweeper().sweep({ maxAgeMs: 0, now: later() })),
      );
      expect(results.reduce((n, r) => n + (r?.uploads ?? 0), 0)).toBe(1);
      expect(await statusOf(url)).toBeUndefined();
    },
  );
});
