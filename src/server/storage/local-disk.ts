import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { PassThrough, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { assertSafeKey, type ObjectStore, ObjectTooLargeError } from "./object-store";

/** Objects as files in one directory; writes go to a temp file and are renamed when whole. */
export function createLocalDiskStore(root: string): ObjectStore {
  const pathOf = (key: string) => {
    assertSafeKey(key);
    return join(root, key);
  };

  return {
    kind: "local",
    createUploadUrl: async () => null,
    createReadUrl: async () => null,
    localRoot: root,

    async write(key, source, { maxBytes }) {
      const target = pathOf(key);
      await mkdir(root, { recursive: true });
      const temp = `${target}.part`;
      let written = 0;
      // Counts as it streams: a 500 MB video never sits in memory, and an oversize
      // body is cut off at the limit instead of filling the disk.
      const limiter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          written += chunk.length;
          if (written > maxBytes) callback(new ObjectTooLargeError(maxBytes));
          else callback(null, chunk);
        },
      });
      try {
        // The source (an HTTP request) is piped through a PassThrough so that a refusal
        // ends only our side: the request itself stays intact for the 413 reply.
        const input = new PassThrough();
        source.pipe(input);
        source.once("error", (err) => input.destroy(err));
        try {
          await pipeline(input, limiter, createWriteStream(temp, { mode: 0o600 }));
        } catch (err) {
          source.unpipe(input);
          throw err;
        }
        await rename(temp, target);
        return written;
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
    },

    async commitUpload(key) {
      return stat(pathOf(key)).then(
        () => true,
        () => false,
      );
    },

    async stat(key) {
      const path = pathOf(key);
      try {
        const info = await stat(path);
        return { size: info.size };
      } catch {
        return null;
      }
    },

    async readHead(key, bytes) {
      const handle = await open(pathOf(key), "r");
      try {
        const buffer = Buffer.alloc(bytes);
        const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },

    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

/** Reads a whole local object as a stream (used by backups and tests). */
export const readLocalObject = (root: string, key: string) => {
  assertSafeKey(key);
  return createReadStream(join(root, key));
};
