import { type Readable, Transform } from "node:stream";
import { crc32 } from "node:zlib";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import { AppError } from "../../plugins/errors";
import { notAZip, tooLarge, tooManyFiles, unreadable, unsafePath } from "./packages.errors";

/** How far a package may go: the contract's limits, smaller in tests of the limits. */
export interface ArchiveLimits {
  /** Entries (files and folders) the central directory may list. */
  maxEntries: number;
  /** Bytes all files may expand to, as declared and as really inflated. */
  maxExpandedBytes: number;
}

/** One file of the archive, by its path inside the package. */
export interface ArchiveFile {
  path: string;
  /** Its size once inflated, as the central directory declares it. */
  size: number;
  entry: Entry;
}

export interface PackageArchive {
  /** Every file by its normalised path (folders are implied by the paths). */
  files: ReadonlyMap<string, ArchiveFile>;
  /** The whole of one small file (a manifest), refused past `maxBytes`. */
  readFile(file: ArchiveFile, maxBytes: number): Promise<Buffer>;
  /**
   * Hands every file's inflated bytes to `write`, one file at a time. The bytes are counted
   * as they inflate: a file that inflates past its declared size, or files that together
   * pass the limit, fail the write with the package's refusal, whatever the central
   * directory said.
   */
  forEachFile(write: (file: ArchiveFile, content: Readable) => Promise<void>): Promise<void>;
}

/**
 * A path as the archive names it, made a package path: "/" between names (a Windows tool's
 * "\" read as one), "." and empty names dropped. Null for the top folder itself. An
 * absolute path, a drive letter, a ".." or a control character is a path that could leave
 * the package when unpacked (zip slip): refused, naming it.
 */
export function packagePathOf(raw: string): { path: string; folder: boolean } | null {
  const name = raw.replace(/\\/g, "/");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/^\//.test(name) || /^[A-Za-z]:/.test(name) || /[\u0000-\u001f]/.test(name)) {
    throw unsafePath(raw);
  }
  const names = name.split("/").filter((n) => n !== "" && n !== ".");
  if (names.includes("..")) throw unsafePath(raw);
  if (!names.length) return null;
  const path = names.join("/");
  // What file systems and object stores keep: 255 bytes a name, 1,024 a path.
  if (path.length > 1024 || names.some((n) => Buffer.byteLength(n) > 255)) {
    throw unreadable(
      `the name "${path.slice(0, 60)}..." is longer than a package's files may have.`,
    );
  }
  return { path, folder: name.endsWith("/") };
}

/** yauzl's words for a file that inflates to more bytes than declared. */
const TOO_MANY_BYTES = /too many bytes/i;

function entryName(entry: Entry): string {
  return yauzl.getFileNameLowLevel(
    entry.generalPurposeBitFlag,
    entry.fileNameRaw,
    entry.extraFields,
    false,
  );
}

/** Lists the archive's files, refusing what the central directory already gives away. */
async function catalogue(zip: ZipFile, limits: ArchiveLimits): Promise<Map<string, ArchiveFile>> {
  if (zip.entryCount > limits.maxEntries) throw tooManyFiles(limits.maxEntries);
  const files = new Map<string, ArchiveFile>();
  const folders = new Set<string>();
  let declared = 0;
  for await (const entry of zip.eachEntry()) {
    const named = packagePathOf(entryName(entry));
    if (!named) continue;
    if (named.folder) {
      folders.add(named.path);
      continue;
    }
    if (entry.isEncrypted()) {
      throw unreadable(`"${named.path}" is protected by a password.`);
    }
    if (!entry.canDecodeFileData()) {
      throw unreadable(
        `"${named.path}" is compressed in a way Credo cannot read (only stored and deflated files are).`,
      );
    }
    declared += entry.uncompressedSize;
    if (declared > limits.maxExpandedBytes) throw tooLarge(limits.maxExpandedBytes);
    files.set(named.path, { path: named.path, size: entry.uncompressedSize, entry });
    const parts = named.path.split("/");
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join("/"));
  }
  for (const folder of folders) {
    if (files.has(folder)) {
      throw unreadable(`the package holds both a file and a folder named "${folder}".`);
    }
  }
  return files;
}

/**
 * Opens a package's `.zip` (a file on local disk) for `work`, and closes it after. A file
 * that is not a zip archive is refused as such.
 */
export async function withArchive<T>(
  path: string,
  limits: ArchiveLimits,
  work: (archive: PackageArchive) => Promise<T>,
): Promise<T> {
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(path, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: false,
      validateEntrySizes: true,
      strictFileNames: false,
    });
  } catch {
    throw notAZip();
  }
  try {
    let files: Map<string, ArchiveFile>;
    try {
      files = await catalogue(zip, limits);
    } catch (err) {
      if (err instanceof AppError) throw err;
      // A central directory that cannot be walked: not a zip archive as far as anyone can use.
      throw notAZip();
    }
    let inflated = 0;

    /** The file's bytes, counted and checked against its checksum as they pass. */
    async function open(file: ArchiveFile, maxBytes = file.size) {
      let failure: AppError | undefined;
      const fail = (err: AppError) => {
        failure ??= err;
        return failure;
      };
      let raw: Readable;
      try {
        raw = await zip.openReadStreamPromise(file.entry);
      } catch (err) {
        throw unreadable(`"${file.path}" is damaged (${(err as Error).message}).`);
      }
      let bytes = 0;
      let sum = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          bytes += chunk.length;
          inflated += chunk.length;
          if (bytes > maxBytes || bytes > file.size || inflated > limits.maxExpandedBytes) {
            callback(fail(tooLarge(limits.maxExpandedBytes)));
            return;
          }
          sum = crc32(chunk, sum);
          callback(null, chunk);
        },
        flush(callback) {
          if (bytes !== file.size) {
            callback(fail(unreadable(`"${file.path}" is shorter than the archive says.`)));
          } else if (sum !== file.entry.crc32) {
            callback(fail(unreadable(`"${file.path}" is damaged (its checksum does not match).`)));
          } else callback();
        },
      });
      raw.on("error", (err) => {
        if (counted.destroyed) return;
        counted.destroy(
          TOO_MANY_BYTES.test(err.message)
            ? fail(tooLarge(limits.maxExpandedBytes))
            : fail(unreadable(`"${file.path}" is damaged (${err.message}).`)),
        );
      });
      // A refusal stops the inflating at once; the writer hears of it through its pipe, and
      // the caller through failure(), so a late error after the writer left harms no one.
      counted.on("error", () => raw.destroy());
      raw.pipe(counted);
      return { content: counted as Readable, failure: () => failure };
    }

    return await work({
      files,
      async readFile(file, maxBytes) {
        const { content, failure } = await open(file, maxBytes);
        const chunks: Buffer[] = [];
        try {
          for await (const chunk of content) chunks.push(chunk as Buffer);
        } catch (err) {
          throw failure() ?? err;
        }
        return Buffer.concat(chunks);
      },
      async forEachFile(write) {
        for (const file of files.values()) {
          const { content, failure } = await open(file);
          try {
            await write(file, content);
          } catch (err) {
            throw failure() ?? err;
          }
          const failed = failure();
          if (failed) throw failed;
        }
      },
    });
  } finally {
    zip.close();
  }
}
