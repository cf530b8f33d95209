import { readdirSync, readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { buildConfig } from "../src/server/config";
import { openPostgres } from "../src/server/db/client";
import { createObjectsSweeper } from "../src/server/platform/objects/objects.sweeper";
import { createLocalDiskStore } from "../src/server/storage/local-disk";
import type { ObjectStore } from "../src/server/storage/object-store";
import { createS3Store } from "../src/server/storage/s3";
import { startTestS3 } from "../src/server/testing/s3-server";
import {
  client,
  clientAddress,
  createDatabase,
  type Instance,
  startInstance,
  tempDir,
  waitUntil,
} from "./support";

const root = new URL("..", import.meta.url).pathname;
const SIZE = 200 * 1024 * 1024;
const CHUNK = 1024 * 1024;
/** A real MP4 at the start (the server sniffs the type), then padding up to 200 MB. */
const head = readFileSync(join(root, "test-fixtures/sample-video.mp4"));
const firstChunk = Buffer.concat([head, Buffer.alloc(CHUNK - head.length, 7)]);
const otherChunk = Buffer.alloc(CHUNK, 7);
const chunkAt = (i: number) => (i === 0 ? firstChunk : otherChunk);

type Admin = ReturnType<typeof client>;

async function signedInAdmin(baseUrl: string): Promise<Admin> {
  const admin = client(baseUrl, clientAddress("upload admin"));
  const r = await admin.request("POST", "/api/auth/setup-admin-password", {
    email: `admin-${Date.now()}@faults.test`,
    password: "admin-pass-1",
    name: "Upload Admin",
    adminKey: "faults-admin-setup-key",
  });
  if (r.status !== 200) throw new Error(`admin setup: ${r.status} ${JSON.stringify(r.json)}`);
  return admin;
}

async function requestUpload(admin: Admin): Promise<{ url: string; id: string }> {
  const r = await admin.request("POST", "/api/objects/upload", {
    kind: "video",
    fileName: "lecture.mp4",
    contentType: "video/mp4",
    size: SIZE,
  });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  const url = String(r.json.uploadURL);
  return { url, id: new URL(url, "http://x").pathname.split("/").pop()! };
}

/**
 * Streams the 200 MB body over a raw socket and destroys the socket once `cutAt` bytes
 * were handed to the kernel: the browser tab closed, the train went into a tunnel.
 */
async function cutUpload(target: URL, headers: Record<string, string>, cutAt: number) {
  const socket = connect(Number(target.port), target.hostname);
  socket.on("error", () => {});
  socket.resume();
  await new Promise((resolve) => socket.once("connect", resolve));
  const lines = [
    `PUT ${target.pathname}${target.search} HTTP/1.1`,
    `Host: ${target.host}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${SIZE}`,
  ];
  socket.write(`${lines.join("\r\n")}\r\n\r\n`);
  for (let sent = 0, i = 0; sent < cutAt && !socket.destroyed; i++) {
    const chunk = chunkAt(i).subarray(0, Math.min(CHUNK, cutAt - sent));
    sent += chunk.length;
    if (!socket.write(chunk)) {
      // The server may go away first (killed): a closed socket never drains.
      await new Promise<void>((resolve) => {
        const done = () => {
          socket.off("drain", done).off("close", done);
          resolve();
        };
        socket.on("drain", done).on("close", done);
      });
    }
  }
  // Once every byte has left for the server, drop the connection mid-body.
  if (socket.writableLength > 0 && !socket.destroyed) {
    await new Promise<void>((resolve) => socket.once("drain", resolve).once("close", resolve));
  }
  socket.destroy();
}

/** The whole 200 MB body, streamed (never held in memory), as a browser's retry sends it. */
function fullUpload(target: URL, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      target,
      { method: "PUT", headers: { ...headers, "content-length": String(SIZE) } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    let i = 0;
    const pump = () => {
      while (i < SIZE / CHUNK) {
        if (!req.write(chunkAt(i++))) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

/** Upload target and headers: same-origin with the session (local), or presigned (S3). */
function targetOf(app: Instance, admin: Admin, url: string) {
  const target = new URL(url, app.url);
  const headers: Record<string, string> = { "Content-Type": "video/mp4" };
  if (target.origin === app.url) headers.Cookie = admin.cookie;
  return { target, headers };
}

/** Nothing of the upload can be used: set-acl refuses it, GET is 404, no module takes it. */
async function expectUnusable(admin: Admin, upload: { url: string; id: string }) {
  const path = `/objects/uploads/${upload.id}`;
  expect(
    (await admin.request("PUT", "/api/objects/set-acl", { objectURL: upload.url })).status,
  ).toBe(409);
  expect((await admin.request("GET", path)).status).toBe(404);
  const course = await admin.request("POST", "/api/courses", {
    title: "Refers to nothing partial",
    description: "Fault test course",
    category: "Development",
    duration: 1,
    modules: [],
  });
  expect(course.status).toBe(201);
  const module = await admin.request("POST", `/api/courses/${course.json.id}/modules`, {
    id: `module_${Date.now()}`,
    title: "Partial video",
    duration: 5,
    videoUrl: path,
  });
  expect(module.status).toBe(400);
}

/** The retried upload is whole: usable in a module and served byte for byte. */
async function expectUsable(admin: Admin, app: Instance, upload: { url: string; id: string }) {
  const acl = await admin.request("PUT", "/api/objects/set-acl", { objectURL: upload.url });
  expect(acl.status, JSON.stringify(acl.json)).toBe(200);
  const path = String(acl.json.objectPath);
  const course = await admin.request("POST", "/api/courses", {
    title: "Uses the retried upload",
    description: "Fault test course",
    category: "Development",
    duration: 1,
    modules: [],
  });
  const module = await admin.request("POST", `/api/courses/${course.json.id}/modules`, {
    id: `module_${Date.now()}`,
    title: "Whole video",
    duration: 5,
    videoUrl: path,
  });
  expect(module.status).toBe(201);
  // The last bytes: a partial object would not have them.
  const range = `bytes=${SIZE - 16}-${SIZE - 1}`;
  let res = await fetch(`${app.url}${path}`, {
    headers: { cookie: admin.cookie, range },
    redirect: "manual",
  });
  const location = res.headers.get("location");
  if (res.status === 302 && location) res = await fetch(location, { headers: { range } });
  expect(res.status).toBe(206);
  expect(res.headers.get("content-range")).toBe(`bytes ${SIZE - 16}-${SIZE - 1}/${SIZE}`);
  expect(Buffer.from(await res.arrayBuffer()).equals(otherChunk.subarray(0, 16))).toBe(true);
}

async function statusOf(databaseUrl: string, id: string): Promise<string | undefined> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  const { rows } = await c.query("select status from objects where id = $1", [id]);
  await c.end();
  return rows[0]?.status;
}

async function sweepNow(databaseUrl: string, store: ObjectStore) {
  const database = await openPostgres(databaseUrl, { poolSize: 2 });
  try {
    // The server sweeps uploads older than a day; a zero age treats these as abandoned.
    return await createObjectsSweeper({ database, store }).sweep({
      maxAgeMs: 0,
      now: new Date(Date.now() + 1_000),
    });
  } finally {
    await database.close();
  }
}

async function leftovers(store: ObjectStore): Promise<string[]> {
  const names: string[] = [];
  for await (const name of store.listLeftovers(new Date(Date.now() + 60_000))) names.push(name);
  return names;
}

describe("a 200 MB video upload cut off at 90 %", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  });

  it("local disk: nothing partial is usable or kept, the retry succeeds, the sweeper cleans up", async () => {
    const db = await createDatabase();
    cleanups.push(db.drop);
    const dataDir = tempDir();
    const env = { DATABASE_URL: db.url, DATA_DIR: dataDir };
    let app = await startInstance(env);
    cleanups.push(() => app.stop());
    const objectsDir = join(dataDir, "objects");
    const filesOf = (id: string) => readdirSync(objectsDir).filter((f) => f.startsWith(id));
    let admin = await signedInAdmin(app.url);

    const upload = await requestUpload(admin);
    const { target, headers } = targetOf(app, admin, upload.url);
    await cutUpload(target, headers, SIZE * 0.9);
    // The temp file goes as soon as the server sees the connection drop; no object appears.
    await waitUntil(() => filesOf(upload.id).length === 0, "the cut upload's temp file to go");
    expect(await statusOf(db.url, upload.id)).toBe("pending");
    await expectUnusable(admin, upload);

    // The retry: the whole file again, to the same URL.
    expect(await fullUpload(target, headers)).toBe(200);
    await expectUsable(admin, app, upload);
    expect(filesOf(upload.id)).toEqual([upload.id]);

    // Abandoned for good: one cut off and never retried, one whose server was killed
    // mid-upload (its temp file stays behind), one URL never used.
    const abandoned = await requestUpload(admin);
    const cut = targetOf(app, admin, abandoned.url);
    await cutUpload(cut.target, cut.headers, SIZE * 0.9);
    // Gone once the server has seen the drop; the kill below must not beat it to that.
    await waitUntil(() => filesOf(abandoned.id).length === 0, "the cut upload's temp file to go");
    const crashed = await requestUpload(admin);
    const crash = targetOf(app, admin, crashed.url);
    const killedMidUpload = cutUpload(crash.target, crash.headers, SIZE * 0.5);
    await waitUntil(() => filesOf(crashed.id).length > 0, "the second upload's temp file");
    await app.stop("SIGKILL");
    await killedMidUpload;
    expect(filesOf(crashed.id)).toEqual([expect.stringMatching(/\.part$/)]);
    app = await startInstance(env);
    admin = admin.withBase(app.url);
    const neverSent = await requestUpload(admin);

    const store = createLocalDiskStore(objectsDir);
    expect(await sweepNow(db.url, store)).toEqual({ uploads: 3, leftovers: 1 });
    for (const gone of [abandoned, crashed, neverSent]) {
      expect(await statusOf(db.url, gone.id)).toBeUndefined();
      expect(filesOf(gone.id)).toEqual([]);
    }
    expect(readdirSync(objectsDir)).toEqual([upload.id]);
    // The retried upload is untouched and still served.
    expect(await statusOf(db.url, upload.id)).toBe("ready");
    const served = await fetch(`${app.url}/objects/uploads/${upload.id}`, {
      headers: { cookie: admin.cookie, range: "bytes=0-15" },
    });
    expect(served.status).toBe(206);
    expect(Buffer.from(await served.arrayBuffer()).equals(head.subarray(0, 16))).toBe(true);
  });

  it("S3: nothing partial is usable, the retry succeeds, the sweeper cleans up", async () => {
    const s3 = await startTestS3();
    cleanups.push(() => s3.close());
    const db = await createDatabase();
    cleanups.push(db.drop);
    const app = await startInstance({ DATABASE_URL: db.url, DATA_DIR: tempDir(), ...s3.env });
    cleanups.push(() => app.stop());
    const store = createS3Store(buildConfig(s3.env).s3!);
    const admin = await signedInAdmin(app.url);

    const upload = await requestUpload(admin);
    expect(upload.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/credo-test\/incoming\//);
    const { target, headers } = targetOf(app, admin, upload.url);
    await cutUpload(target, headers, SIZE * 0.9);
    await expectUnusable(admin, upload).catch((e) => {
      console.log(app.output());
      throw e;
    });
    expect(await store.stat(upload.id)).toBeNull();
    expect(await statusOf(db.url, upload.id)).toBe("pending");

    // The retry: the same presigned URL (still valid), then set-acl.
    expect(await fullUpload(target, headers)).toBe(200);
    await expectUsable(admin, app, upload);

    const abandoned = await requestUpload(admin);
    const cut = targetOf(app, admin, abandoned.url);
    await cutUpload(cut.target, cut.headers, SIZE * 0.9);
    const neverConfirmed = await requestUpload(admin);
    const sent = targetOf(app, admin, neverConfirmed.url);
    expect(await fullUpload(sent.target, sent.headers)).toBe(200);

    const result = await sweepNow(db.url, store);
    expect(result?.uploads).toBe(2);
    for (const gone of [abandoned, neverConfirmed]) {
      expect(await statusOf(db.url, gone.id)).toBeUndefined();
      expect(await store.stat(gone.id)).toBeNull();
    }
    expect(await leftovers(store)).toEqual([]);
    expect(await store.stat(upload.id)).toEqual({ size: SIZE });
    expect(await statusOf(db.url, upload.id)).toBe("ready");
  });
});
