import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "../../plugins/errors";
import { makeZip, type ZipEntry } from "../../testing/zips";
import { type ArchiveLimits, packagePathOf, withArchive } from "./zip-archive";

const dir = mkdtempSync(join(tmpdir(), "credo-zip-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const LIMITS: ArchiveLimits = { maxEntries: 100, maxExpandedBytes: 10_000 };

function zipFile(bytes: Buffer): string {
  const path = join(dir, `${++n}.zip`);
  writeFileSync(path, bytes);
  return path;
}

/** Opens the archive and reads every file; the refusal's code, or the files' contents. */
async function readAll(bytes: Buffer, limits = LIMITS) {
  try {
    return await withArchive(zipFile(bytes), limits, async (archive) => {
      const contents: Record<string, string> = {};
      await archive.forEachFile(async (file, content) => {
        const chunks: Buffer[] = [];
        for await (const chunk of content) chunks.push(chunk as Buffer);
        contents[file.path] = Buffer.concat(chunks).toString("utf8");
      });
      return contents;
    });
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
}

describe("a package's zip archive", () => {
  it("makes every name a path inside the package, or refuses it as leaving", () => {
    expect(packagePathOf("a/b.html")).toEqual({ path: "a/b.html", folder: false });
    expect(packagePathOf("./a//b.html")).toEqual({ path: "a/b.html", folder: false });
    expect(packagePathOf("a\\b.html")).toEqual({ path: "a/b.html", folder: false });
    expect(packagePathOf("a/")).toEqual({ path: "a", folder: true });
    expect(packagePathOf("./")).toBeNull();
    expect(() => packagePathOf(`${"a".repeat(256)}.html`)).toThrow(/longer than/);
    expect(() => packagePathOf(`${"a/".repeat(600)}b`)).toThrow(/longer than/);
    for (const name of [
      "../a",
      "a/../../b",
      "/etc/passwd",
      "C:/x",
      "c:x",
      "a\u0000b",
      "a/..\\..\\b",
    ]) {
      expect(() => packagePathOf(name), name).toThrow(AppError);
    }
  });

  it("hands over every file's bytes, stored or deflated", async () => {
    const entries: ZipEntry[] = [
      { name: "folder/" },
      { name: "folder/a.txt", data: "deflated text ".repeat(20) },
      { name: "b.txt", data: "stored", method: "store" },
    ];
    expect(await readAll(makeZip(entries))).toEqual({
      "folder/a.txt": "deflated text ".repeat(20),
      "b.txt": "stored",
    });
  });

  it("refuses a damaged file, a file that is also a folder, and what is not a zip", async () => {
    const good = makeZip([{ name: "a.txt", data: "hello world", method: "store" }]);
    const damaged = Buffer.from(good);
    const first = 30 + "a.txt".length; // the first byte of the stored data
    damaged.writeUInt8(damaged.readUInt8(first) ^ 0xff, first);
    expect(await readAll(damaged)).toBe("modules.package_unreadable");
    const both = makeZip([
      { name: "a", data: "file" },
      { name: "a/b", data: "inside" },
    ]);
    expect(await readAll(both)).toBe("modules.package_unreadable");
    expect(await readAll(Buffer.from("PK not really a zip"))).toBe("modules.package_not_zip");
    expect(await readAll(Buffer.alloc(0))).toBe("modules.package_not_zip");
  });

  it("refuses a password-protected file", async () => {
    // Stored after the 12-byte header that traditional zip encryption puts before the data.
    const zip = makeZip([
      { name: "secret.txt", data: Buffer.alloc(13), method: "store", declaredSize: 1 },
    ]);
    // The general purpose flag's bit 0, in the local header and the central directory.
    zip.writeUInt16LE(zip.readUInt16LE(6) | 1, 6);
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt16LE(zip.readUInt16LE(central + 8) | 1, central + 8);
    expect(await readAll(zip)).toBe("modules.package_unreadable");
  });

  it("holds to its limits by the central directory and by the bytes really inflated", async () => {
    const files = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ name: `${i}.txt`, data: "x" }));
    expect(await readAll(makeZip(files(100)))).toEqual(expect.any(Object));
    expect(await readAll(makeZip(files(101)))).toBe("modules.package_too_many_files");
    const declared = makeZip([{ name: "big", data: "x", declaredSize: 10_001 }]);
    expect(await readAll(declared)).toBe("modules.package_too_large");
    // Each file honest about its size, together past the limit: refused as they inflate.
    const honest = makeZip([
      { name: "a", data: Buffer.alloc(6000) },
      { name: "b", data: Buffer.alloc(6000) },
    ]);
    expect(await readAll(honest, { maxEntries: 100, maxExpandedBytes: 20_000 })).toEqual(
      expect.any(Object),
    );
    const lying = makeZip([{ name: "bomb", data: Buffer.alloc(1_000_000), declaredSize: 100 }]);
    expect(await readAll(lying)).toBe("modules.package_too_large");
  });
});
