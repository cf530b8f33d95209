import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildConfig } from "../config";
import { startTestS3, type TestS3 } from "../testing/s3-server";
import { databaseOnly } from "../testing/test-scope";
import { fixture } from "../testing/uploads";
import type { ObjectStore } from "./object-store";
import { createS3Store } from "./s3";

describe.skipIf(databaseOnly)("S3 object store against a real S3-compatible server", () => {
  let s3: TestS3;
  let store: ObjectStore;
  const key = "AbCdEfGhIjKlMnOpQrStUvWx";
  const video = fixture("sample-video.mp4");

  beforeAll(async () => {
    s3 = await startTestS3();
    store = createS3Store(buildConfig(s3.env).s3!);
  });
  afterAll(async () => {
    await s3.close();
  });

  it("accepts a browser PUT to a presigned URL and reads it back by range", async () => {
    const url = await store.createUploadUrl(key, {
      contentType: "video/mp4",
      size: video.length,
      expiresInSeconds: 60,
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/credo-test\/incoming\//);
    const put = await fetch(url!, {
      method: "PUT",
      body: video,
      headers: { "content-type": "video/mp4" },
    });
    expect(put.status).toBe(200);
    // Nothing is served from an upload until set-acl commits it.
    expect(await store.stat(key)).toBeNull();
    expect(await store.commitUpload(key)).toBe(true);
    expect(await store.stat(key)).toEqual({ size: video.length });
    expect(await store.commitUpload(key)).toBe(true);
    const head = await store.readHead(key, 16);
    expect(head.equals(video.subarray(0, 16))).toBe(true);
    const readUrl = await store.createReadUrl(key, {
      contentType: "video/mp4",
      expiresInSeconds: 60,
    });
    const ranged = await fetch(readUrl!, { headers: { range: "bytes=100-199" } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(video.subarray(100, 200))).toBe(true);
  });

  it("keeps a committed object out of its upload URL's reach", async () => {
    const committed = "CoMmItTeDoBjEcTkEy012345";
    const url = await store.createUploadUrl(committed, {
      contentType: "image/png",
      size: 8,
      expiresInSeconds: 60,
    });
    expect(await store.commitUpload(committed)).toBe(false);
    const send = (body: string) =>
      fetch(url!, { method: "PUT", body, headers: { "content-type": "image/png" } });
    expect((await send("original")).status).toBe(200);
    expect(await store.commitUpload(committed)).toBe(true);
    expect((await send("swapped!")).status).toBe(200);
    expect((await store.readHead(committed, 8)).toString()).toBe("original");
    await store.delete(committed);
    expect(await store.stat(committed)).toBeNull();
    expect(await store.commitUpload(committed)).toBe(false);
  });

  it("writes server-side streams and deletes objects", async () => {
    const other = "ZyXwVuTsRqPoNmLkJiHgFeDc";
    const size = await store.write(other, Readable.from([video]), {
      maxBytes: video.length,
      contentType: "video/mp4",
    });
    expect(size).toBe(video.length);
    await store.delete(other);
    expect(await store.stat(other)).toBeNull();
  });

  it("sweeps the download folders a crash left behind, and none in use", async () => {
    const tempDir = mkdtempSync(join(tmpdir(), "credo-s3-temp-"));
    try {
      const withTemp = createS3Store(buildConfig(s3.env).s3!, { tempDir });
      const left = join(tempDir, "credo-download-AbC123");
      mkdirSync(left);
      writeFileSync(join(left, "object"), "half a package");
      mkdirSync(join(tempDir, "not-ours"));
      const names: string[] = [];
      for await (const name of withTemp.listLeftovers(new Date(Date.now() + 60_000))) {
        names.push(name);
      }
      const download = names.filter((n) => n.startsWith("downloads/"));
      expect(download).toEqual(["downloads/credo-download-AbC123"]);
      // A folder still being written (newer than the sweep's cut-off) is left alone.
      const early: string[] = [];
      for await (const name of withTemp.listLeftovers(new Date(0))) early.push(name);
      expect(early).toEqual([]);
      await withTemp.deleteLeftover(download[0]!);
      await withTemp.deleteLeftover("downloads/../not-ours");
      expect(readdirSync(tempDir)).toEqual(["not-ours"]);
    } finally {
      rmSync(tempDir, { recursive: true, force: true });
    }
  });

  it("refuses keys that could escape the uploads prefix", async () => {
    await expect(store.stat("../etc/passwd")).rejects.toThrow(/unsafe object key/);
  });
});
