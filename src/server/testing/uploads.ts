import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { TestContext } from "./test-app";

const fixturesDir = fileURLToPath(new URL("../../../test-fixtures/", import.meta.url));

export const fixture = (name: string) => readFileSync(`${fixturesDir}${name}`);

export interface UploadRequest {
  kind: "thumbnail" | "video" | "logo" | "package";
  contentType: string;
  size: number;
  fileName?: string;
}

/** POST /api/objects/upload; the raw response, so tests can check refusals. */
export function requestUpload(ctx: TestContext, cookie: string, body: UploadRequest) {
  return ctx.app.inject({
    method: "POST",
    url: "/api/objects/upload",
    headers: { cookie },
    payload: { fileName: "file", ...body },
  });
}

/**
 * PUTs bytes to an upload URL as a browser would: through the app for the local store's
 * same-origin path, or with a real request for an absolute (presigned S3) URL.
 */
export async function putUpload(
  ctx: TestContext,
  cookie: string,
  uploadURL: string,
  bytes: Buffer,
  contentType: string,
): Promise<{ statusCode: number; body: string }> {
  if (/^https?:\/\//.test(uploadURL)) {
    const response = await fetch(uploadURL, {
      method: "PUT",
      body: new Uint8Array(bytes),
      headers: { "content-type": contentType },
    });
    return { statusCode: response.status, body: await response.text() };
  }
  const response = await ctx.app.inject({
    method: "PUT",
    url: uploadURL,
    headers: { cookie, "content-type": contentType },
    payload: bytes,
  });
  return { statusCode: response.statusCode, body: response.body };
}

/** PUT /api/objects/set-acl with an upload URL; the raw response. */
export function setAcl(ctx: TestContext, cookie: string, objectURL: string) {
  return ctx.app.inject({
    method: "PUT",
    url: "/api/objects/set-acl",
    headers: { cookie },
    payload: { objectURL },
  });
}

/** Runs the whole upload flow through the API (request URL, PUT bytes, set-acl). */
export async function uploadObject(
  ctx: TestContext,
  cookie: string,
  options: {
    kind: "thumbnail" | "video" | "logo" | "package";
    file?: string;
    bytes?: Buffer;
    contentType?: string;
    fileName?: string;
  },
): Promise<string> {
  const bytes =
    options.bytes ??
    fixture(
      options.file ?? (options.kind === "video" ? "sample-video.mp4" : "sample-thumbnail.png"),
    );
  const contentType =
    options.contentType ??
    (options.kind === "video"
      ? "video/mp4"
      : options.kind === "package"
        ? "application/zip"
        : "image/png");
  const requested = await requestUpload(ctx, cookie, {
    kind: options.kind,
    contentType,
    size: bytes.length,
    fileName: options.fileName ?? (options.kind === "package" ? "course.zip" : "file"),
  });
  if (requested.statusCode !== 200) throw new Error(`upload request: ${requested.body}`);
  const { uploadURL } = requested.json() as { uploadURL: string };
  const put = await putUpload(ctx, cookie, uploadURL, bytes, contentType);
  if (put.statusCode !== 200) throw new Error(`upload PUT: ${put.statusCode} ${put.body}`);
  const acl = await setAcl(ctx, cookie, uploadURL);
  if (acl.statusCode !== 200) throw new Error(`set-acl: ${acl.statusCode} ${acl.body}`);
  return (acl.json() as { objectPath: string }).objectPath;
}
