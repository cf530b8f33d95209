import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { buildConfig } from "../config";
import { createLocalDiskStore } from "../storage/local-disk";
import type { ObjectStore } from "../storage/object-store";
import { createS3Store } from "../storage/s3";
import { startTestS3, type TestS3 } from "./s3-server";
import { type TestContext, useTestApp } from "./test-app";
import { databaseOnly } from "./test-scope";

export type StoreKind = "local" | "s3";
/** Both object stores of ARCHITECTURE section 1, for `describe.each` (see test-scope.ts). */
export const STORE_KINDS: StoreKind[] = databaseOnly ? ["local"] : ["local", "s3"];

export interface StoreTestContext extends TestContext {
  storeKind: StoreKind;
  /** The same store the app writes to, to prove what is (or is not) stored. */
  store: ObjectStore;
}

/**
 * useTestApp on the local disk store, or on a real S3-compatible server (s3rver on
 * 127.0.0.1) started before the app and stopped after it.
 */
export function useTestAppWithStore(kind: StoreKind): StoreTestContext {
  let s3: TestS3 | undefined;
  if (kind === "s3") {
    beforeAll(async () => {
      s3 = await startTestS3();
    });
    afterAll(async () => {
      await s3?.close();
    });
  }
  const ctx = useTestApp(() => s3?.env ?? {}) as StoreTestContext;
  ctx.storeKind = kind;
  beforeAll(() => {
    ctx.store = s3
      ? createS3Store(buildConfig(s3.env).s3!)
      : createLocalDiskStore(join(ctx.dataDir, "objects"));
  });
  return ctx;
}

/** The object id of an object path `/objects/uploads/<id>`. */
export function objectIdOf(objectPath: string): string {
  const id = objectPath.split("/").pop();
  if (!id) throw new Error(`not an object path: ${objectPath}`);
  return id;
}

/** Whether the store still holds the object's bytes. */
export async function isStored(ctx: StoreTestContext, objectPath: string): Promise<boolean> {
  return (await ctx.store.stat(objectIdOf(objectPath))) !== null;
}

export interface ObjectDownload {
  statusCode: number;
  /** The portal's own answer (a 302 for S3, the bytes for the local store). */
  portal: { statusCode: number; headers: Record<string, unknown>; body: string };
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * GET an object as a browser would: the portal answers with the bytes (local store) or
 * a 302 to a presigned URL (S3), which is followed with the same Range header.
 */
export async function download(
  ctx: TestContext,
  url: string,
  headers: Record<string, string> = {},
): Promise<ObjectDownload> {
  const response = await ctx.app.inject({ method: "GET", url, headers });
  const portal = {
    statusCode: response.statusCode,
    headers: response.headers as Record<string, unknown>,
    body: response.body,
  };
  const location = response.headers.location;
  if (response.statusCode === 302 && typeof location === "string") {
    const { cookie: _cookie, ...forwarded } = headers;
    const followed = await fetch(location, { headers: forwarded });
    return {
      statusCode: followed.status,
      portal,
      headers: Object.fromEntries(followed.headers),
      body: Buffer.from(await followed.arrayBuffer()),
    };
  }
  return {
    statusCode: response.statusCode,
    portal,
    headers: Object.fromEntries(
      Object.entries(response.headers).map(([key, value]) => [key, String(value)]),
    ),
    body: response.rawPayload,
  };
}
