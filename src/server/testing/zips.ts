import { readFileSync } from "node:fs";
import { crc32, deflateRawSync } from "node:zlib";

/** The peers' packages (outside content, read where they are: shared/peers/). */
const PEERS = new URL("../../../../shared/peers/", import.meta.url);
export const golfPackage = (name: string) => readFileSync(new URL(`scorm-golf/${name}`, PEERS));
export const cmi5Package = (name: string) => readFileSync(new URL(`cmi5-packages/${name}`, PEERS));
export const ltsCourseStructure = (name: string) =>
  readFileSync(new URL(`catapult-lts/pkg/src/${name}`, PEERS));

export interface ZipEntry {
  /** The name exactly as the archive stores it ("../x", "/abs", "C:\\x" included). */
  name: string;
  data?: Buffer | string;
  /** Deflated (the default) or stored. */
  method?: "deflate" | "store";
  /** A size to declare instead of the real one (a zip bomb lies about it). */
  declaredSize?: number;
}

/**
 * A zip archive made byte by byte, so tests can make what no zip tool would: names that
 * leave the package, sizes that lie, more entries than any course has.
 */
export function makeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const data = Buffer.from(entry.data ?? "");
    const deflate = (entry.method ?? "deflate") === "deflate" && !entry.name.endsWith("/");
    const stored = deflate ? deflateRawSync(data) : data;
    const size = entry.declaredSize ?? data.length;
    const sum = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // names in UTF-8
    local.writeUInt16LE(deflate ? 8 : 0, 8);
    local.writeUInt32LE(sum, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, stored);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(deflate ? 8 : 0, 10);
    central.writeUInt32LE(sum, 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + stored.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A SCORM 1.2 manifest whose one item launches `href`. */
export const scormManifest = (href: string, title = "Made by the test") => `<?xml version="1.0"?>
<manifest identifier="test.package" version="1"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org">
    <organization identifier="org">
      <title>${title}</title>
      <item identifier="item_1" identifierref="res_1"><title>Lesson</title></item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="res_1" type="webcontent" adlcp:scormtype="sco" href="${href}"/>
  </resources>
</manifest>`;

/** A small valid SCORM 1.2 package, with `extra` entries beside it. */
export const scormZip = (extra: ZipEntry[] = [], href = "index.html") =>
  makeZip([
    { name: "imsmanifest.xml", data: scormManifest(href) },
    { name: "index.html", data: "<html><body>Lesson</body></html>" },
    ...extra,
  ]);
