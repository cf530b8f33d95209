import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import {
  assertSafeKey,
  assertSafePackagePath,
  ObjectIncompleteError,
  type ObjectStore,
  ObjectTooLargeError,
  PACKAGES_PREFIX,
} from "./object-store";

export interface S3StoreConfig {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

const PREFIX = "uploads/";

/** withLocalFile's download folders in `tempDir`, and how the sweeper names them. */
const DOWNLOAD_DIR_PREFIX = "credo-download-";
const DOWNLOAD_DIR = /^credo-download-[A-Za-z0-9]{6}$/;
const DOWNLOADS = "downloads/";

/**
 * Presigned upload URLs stay valid for a while after set-acl: they point here, never at
 * the checked object, so they cannot swap its bytes for unchecked ones.
 */
const INCOMING = "incoming/";

/** How many keys one DeleteObjects request may name (the S3 API's limit). */
const DELETE_BATCH = 1000;

/**
 * Objects in an S3-compatible bucket; browsers upload and download with presigned URLs.
 * `tempDir` holds the short-lived downloads of withLocalFile (the system's by default).
 */
export function createS3Store(
  config: S3StoreConfig,
  options: { tempDir?: string } = {},
): ObjectStore {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // Streamed uploads with default checksums are stored corrupted by some S3-compatible
    // servers; checksums only when the operation requires them.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const keyOf = (key: string) => {
    assertSafeKey(key);
    return `${PREFIX}${key}`;
  };
  const incomingKeyOf = (key: string) => {
    assertSafeKey(key);
    return `${INCOMING}${key}`;
  };
  const packagePrefixOf = (packageId: string) => {
    assertSafeKey(packageId);
    return `${PACKAGES_PREFIX}/${packageId}/`;
  };
  /** Every key under a prefix, page by page. */
  async function* keysUnder(Prefix: string) {
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: config.bucket, Prefix, ContinuationToken }),
      );
      for (const item of page.Contents ?? []) if (item.Key) yield item.Key;
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }
  const head = async (Key: string) => {
    try {
      const found = await client.send(new HeadObjectCommand({ Bucket: config.bucket, Key }));
      return { size: found.ContentLength ?? 0 };
    } catch {
      return null;
    }
  };

  return {
    kind: "s3",
    localRoot: undefined,

    async createUploadUrl(key, { contentType, size, expiresInSeconds }) {
      // Signing Content-Type and Content-Length makes the store refuse other bodies.
      const command = new PutObjectCommand({
        Bucket: config.bucket,
        Key: incomingKeyOf(key),
        ContentType: contentType,
        ContentLength: size,
      });
      return getSignedUrl(client, command, {
        expiresIn: expiresInSeconds,
        signableHeaders: new Set(["content-type", "content-length"]),
      });
    },

    async createReadUrl(key, { contentType, expiresInSeconds }) {
      const command = new GetObjectCommand({
        Bucket: config.bucket,
        Key: keyOf(key),
        ResponseContentType: contentType,
      });
      return getSignedUrl(client, command, { expiresIn: expiresInSeconds });
    },

    async write(key, source, { maxBytes, contentType, size }) {
      const chunks: Buffer[] = [];
      let written = 0;
      // Server-side writes (seeding) are small; uploads from browsers go direct to S3.
      await new Promise<void>((resolve, reject) => {
        source
          .pipe(
            new Transform({
              transform(chunk: Buffer, _e, callback) {
                written += chunk.length;
                if (written > maxBytes) callback(new ObjectTooLargeError(maxBytes));
                else {
                  chunks.push(chunk);
                  callback();
                }
              },
            }),
          )
          .on("error", reject)
          .on("finish", resolve);
        source.on("error", reject);
      });
      if (size !== undefined && written !== size) throw new ObjectIncompleteError(size, written);
      await client.send(
        new PutObjectCommand({
          Bucket: config.bucket,
          Key: keyOf(key),
          Body: Buffer.concat(chunks),
          ContentType: contentType,
        }),
      );
      return written;
    },

    async commitUpload(key) {
      const incoming = incomingKeyOf(key);
      // Already moved (a set-acl that stopped before recording it): nothing left to move.
      if (!(await head(incoming))) return (await head(keyOf(key))) !== null;
      try {
        await client.send(
          new CopyObjectCommand({
            Bucket: config.bucket,
            Key: keyOf(key),
            CopySource: `${config.bucket}/${incoming}`,
          }),
        );
      } catch {
        // Moved since it was found: a set-acl sent again at the same time committed it, and
        // what is under uploads/ is that whole copy, not a leftover of this one.
        if (!(await head(incoming))) return (await head(keyOf(key))) !== null;
        // Unreadable like an absent upload (see head): some S3-compatible servers keep a
        // cut-off PUT half-written. Not finished; a new PUT to the same URL replaces it.
        // Whatever part of it the failed copy left under uploads/ goes.
        await client
          .send(new DeleteObjectCommand({ Bucket: config.bucket, Key: keyOf(key) }))
          .catch(() => {});
        return false;
      }
      await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: incoming }));
      return true;
    },

    async stat(key) {
      return head(keyOf(key));
    },

    async readHead(key, bytes) {
      const object = await client.send(
        new GetObjectCommand({
          Bucket: config.bucket,
          Key: keyOf(key),
          Range: `bytes=0-${bytes - 1}`,
        }),
      );
      const body = await object.Body?.transformToByteArray();
      return Buffer.from(body ?? []);
    },

    async readStream(key) {
      const object = await client.send(
        new GetObjectCommand({ Bucket: config.bucket, Key: keyOf(key) }),
      );
      // In Node the SDK's body is an http.IncomingMessage: a Readable.
      if (!(object.Body instanceof Readable)) throw new Error(`no body for object ${key}`);
      return object.Body;
    },

    async delete(key) {
      for (const Key of [keyOf(key), incomingKeyOf(key)]) {
        await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key }));
      }
    },
    async *listLeftovers(before) {
      // Downloads for withLocalFile that a crash cut off (a package's `.zip` being unpacked):
      // the folder outlives the process that would have removed it.
      if (options.tempDir) {
        const names = await readdir(options.tempDir).catch(() => [] as string[]);
        for (const name of names) {
          if (!DOWNLOAD_DIR.test(name)) continue;
          const info = await stat(join(options.tempDir, name)).catch(() => null);
          if (info && info.mtime < before) yield `${DOWNLOADS}${name}`;
        }
      }
      // Whatever is still under incoming/ was never committed (or was PUT again after
      // set-acl); its upload URL expired long ago, so nothing will ever read it.
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: config.bucket, Prefix: INCOMING, ContinuationToken }),
        );
        for (const item of page.Contents ?? []) {
          const name = item.Key?.slice(INCOMING.length);
          if (
            name &&
            /^[A-Za-z0-9_-]{16,64}$/.test(name) &&
            item.LastModified &&
            item.LastModified < before
          ) {
            yield name;
          }
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async deleteLeftover(name) {
      if (name.startsWith(DOWNLOADS)) {
        const dir = name.slice(DOWNLOADS.length);
        if (options.tempDir && DOWNLOAD_DIR.test(dir)) {
          await rm(join(options.tempDir, dir), { recursive: true, force: true });
        }
        return;
      }
      await client.send(
        new DeleteObjectCommand({ Bucket: config.bucket, Key: incomingKeyOf(name) }),
      );
    },

    async withLocalFile(key, work) {
      const object = await client.send(
        new GetObjectCommand({ Bucket: config.bucket, Key: keyOf(key) }),
      );
      if (!(object.Body instanceof Readable)) throw new Error(`no body for object ${key}`);
      const root = options.tempDir ?? tmpdir();
      await mkdir(root, { recursive: true });
      const dir = await mkdtemp(join(root, DOWNLOAD_DIR_PREFIX));
      try {
        const path = join(dir, "object");
        await pipeline(object.Body, createWriteStream(path, { mode: 0o600 }));
        return await work(path);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },

    async writePackageFile(packageId, path, source, { size, contentType }) {
      assertSafePackagePath(path);
      let written = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          written += chunk.length;
          if (written > size) callback(new ObjectTooLargeError(size));
          else callback(null, chunk);
        },
      });
      const body = source.pipe(counter);
      // A source that fails (a corrupt entry) must fail the upload too. The PUT hears of it
      // through its own listener; this one keeps an error that comes after the PUT gave up
      // from going unheard.
      source.on("error", (err) => {
        if (!counter.destroyed) counter.destroy(err);
      });
      counter.on("error", () => source.destroy());
      await client.send(
        new PutObjectCommand({
          Bucket: config.bucket,
          Key: `${packagePrefixOf(packageId)}${path}`,
          Body: body,
          ContentLength: size,
          ContentType: contentType,
        }),
      );
      if (written !== size) throw new ObjectIncompleteError(size, written);
    },

    async readPackageFile(packageId, path, range) {
      assertSafePackagePath(path);
      const object = await client.send(
        new GetObjectCommand({
          Bucket: config.bucket,
          Key: `${packagePrefixOf(packageId)}${path}`,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      if (!(object.Body instanceof Readable)) throw new Error(`no body for ${path}`);
      return object.Body;
    },

    async packageFileSize(packageId, path) {
      assertSafePackagePath(path);
      const found = await client.send(
        new HeadObjectCommand({
          Bucket: config.bucket,
          Key: `${packagePrefixOf(packageId)}${path}`,
        }),
      );
      return found.ContentLength ?? 0;
    },

    async deletePackage(packageId) {
      let batch: string[] = [];
      const flush = async () => {
        if (!batch.length) return;
        await client.send(
          new DeleteObjectsCommand({
            Bucket: config.bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        );
        batch = [];
      };
      for await (const key of keysUnder(packagePrefixOf(packageId))) {
        batch.push(key);
        if (batch.length === DELETE_BATCH) await flush();
      }
      await flush();
    },

    async *listPackages() {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: config.bucket,
            Prefix: `${PACKAGES_PREFIX}/`,
            Delimiter: "/",
            ContinuationToken,
          }),
        );
        for (const prefix of page.CommonPrefixes ?? []) {
          const id = prefix.Prefix?.slice(PACKAGES_PREFIX.length + 1, -1);
          if (id) yield id;
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
  };
}
