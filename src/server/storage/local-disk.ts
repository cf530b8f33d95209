import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, opendir, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { finished, PassThrough, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  assertSafeKey,
  assertSafePackagePath,
  NotAPackageFileError,
  ObjectIncompleteError,
  type ObjectStore,
  ObjectTooLargeError,
  PACKAGES_PREFIX,
} from "./object-store";

/** A write in progress (or cut off by a crash): `<key>.<random>.part`, never served. */
const TEMP_FILE = /^[A-Za-z0-9_-]{16,64}(\.[0-9a-f]{12})?\.part$/;

/**
 * Objects as files in one directory. Writes go to a temp file of their own and are renamed
 * only when whole, so an object file is always complete and a cut-off upload leaves none.
 */
export function createLocalDiskStore(root: string): ObjectStore {
  const pathOf = (key: string) => {
    assertSafeKey(key);
    return join(root, key);
  };
  const packagesRoot = join(root, PACKAGES_PREFIX);
  const packageDir = (packageId: string) => {
    assertSafeKey(packageId);
    return join(packagesRoot, packageId);
  };
  /** One file of a package on disk, with its size. */
  async function packageFile(packageId: string, path: string) {
    assertSafePackagePath(path);
    const file = join(packageDir(packageId), path);
    const found = await stat(file);
    // A folder of the package is no file of it (as in a bucket, where it is no object).
    if (!found.isFile()) throw new NotAPackageFileError(path);
    return { path: file, size: found.size };
  }

  return {
    kind: "local",
    createUploadUrl: async () => null,
    createReadUrl: async () => null,
    localRoot: root,

    async write(key, source, { maxBytes, size }) {
      const target = pathOf(key);
      await mkdir(root, { recursive: true });
      // One temp file per attempt: a retry racing a stalled first attempt never shares it.
      const temp = join(root, `${key}.${randomBytes(6).toString("hex")}.part`);
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
        // A client cut off mid-body ends the request with an error or a premature close,
        // never with 'end': either must fail the write instead of leaving it waiting.
        const stopWatching = finished(source, (err) => {
          if (err) input.destroy(err);
        });
        const file = createWriteStream(temp, { mode: 0o600 });
        try {
          await pipeline(input, limiter, file);
        } catch (err) {
          source.unpipe(input);
          // A refusal can come before the file was even opened: the stream still opens and
          // closes it afterwards, which would create the temp file again after its removal.
          if (!file.closed) await once(file, "close");
          throw err;
        } finally {
          stopWatching();
        }
        if (size !== undefined && written !== size) throw new ObjectIncompleteError(size, written);
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

    async readStream(key) {
      return createReadStream(pathOf(key));
    },

    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async *listLeftovers(before) {
      let dir: Awaited<ReturnType<typeof opendir>>;
      try {
        dir = await opendir(root);
      } catch {
        return; // no upload has created the directory yet
      }
      for await (const entry of dir) {
        if (!entry.isFile() || !TEMP_FILE.test(entry.name)) continue;
        // A live write keeps touching its temp file: only a stale one is a leftover.
        const info = await stat(join(root, entry.name)).catch(() => null);
        if (info && info.mtime < before) yield entry.name;
      }
    },
    async deleteLeftover(name) {
      if (!TEMP_FILE.test(name)) throw new Error(`not an upload leftover: ${name}`);
      await rm(join(root, name), { force: true });
    },

    async withLocalFile(key, work) {
      const path = pathOf(key);
      await stat(path);
      return work(path);
    },

    async writePackageFile(packageId, path, source, { size }) {
      assertSafePackagePath(path);
      const target = join(packageDir(packageId), path);
      await mkdir(dirname(target), { recursive: true });
      let written = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          written += chunk.length;
          if (written > size) callback(new ObjectTooLargeError(size));
          else callback(null, chunk);
        },
      });
      // No temp file: a package is not served before all of it is written and recorded,
      // and a package that fails is deleted whole.
      await pipeline(source, counter, createWriteStream(target, { mode: 0o600 }));
      if (written !== size) throw new ObjectIncompleteError(size, written);
    },

    async readPackageFile(packageId, path, range) {
      const file = await packageFile(packageId, path);
      return createReadStream(file.path, range);
    },

    async packageFileSize(packageId, path) {
      return (await packageFile(packageId, path)).size;
    },

    async deletePackage(packageId) {
      await rm(packageDir(packageId), { recursive: true, force: true });
    },

    async *listPackages() {
      let dir: Awaited<ReturnType<typeof opendir>>;
      try {
        dir = await opendir(packagesRoot);
      } catch {
        return; // no package has been unpacked yet
      }
      for await (const entry of dir) if (entry.isDirectory()) yield entry.name;
    },
  };
}
