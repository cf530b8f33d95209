import { type Cmi5Description, readCmi5CourseStructure } from "./cmi5-course-structure";
import { aiccPackage, invalidManifest, manifestInFolder, noManifest } from "./packages.errors";
import { readScormManifest, type ScormDescription } from "./scorm-manifest";
import { decodeXml, parseXml } from "./xml-tree";
import type { ArchiveFile, PackageArchive } from "./zip-archive";

/** What a checked package holds: its standard, title and items, and what playing it needs. */
export type PackageDescription = ScormDescription | Cmi5Description;

const MANIFESTS = { scorm: "imsmanifest.xml", cmi5: "cmi5.xml" } as const;
type Family = keyof typeof MANIFESTS;
/** A manifest far larger than any course needs is refused before it is read. */
const MANIFEST_MAX_BYTES = 16 * 1_048_576;
/** The files of an AICC course (course, assignable units, descriptors, structure). */
const AICC_FILE = /\.(crs|au|des|cst|ort|pre|cmp)$/i;

const baseName = (path: string) => path.slice(path.lastIndexOf("/") + 1).toLowerCase();

/**
 * The manifest that makes the package what it is, at the package's top: `imsmanifest.xml`
 * for SCORM, `cmi5.xml` for cmi5 (a package with both is read as the kind asked for).
 * Refuses a manifest inside a folder (naming the folder), an AICC course, and a package with
 * neither.
 */
function locateManifest(
  files: ReadonlyMap<string, ArchiveFile>,
  asked: Family,
): { family: Family; file: ArchiveFile } {
  const top = new Map<Family, ArchiveFile>();
  let nested: { family: Family; path: string } | undefined;
  for (const file of files.values()) {
    const name = baseName(file.path);
    const family = (Object.keys(MANIFESTS) as Family[]).find((f) => MANIFESTS[f] === name);
    if (!family) continue;
    if (!file.path.includes("/")) top.set(family, file);
    else if (!nested || file.path.split("/").length < nested.path.split("/").length) {
      nested = { family, path: file.path };
    }
  }
  const found = top.get(asked) ?? top.get(asked === "scorm" ? "cmi5" : "scorm");
  if (found) return { family: found === top.get("cmi5") ? "cmi5" : "scorm", file: found };
  if (nested) {
    throw manifestInFolder(
      MANIFESTS[nested.family],
      nested.path.slice(0, nested.path.lastIndexOf("/")),
    );
  }
  if ([...files.keys()].some((path) => AICC_FILE.test(path))) throw aiccPackage();
  throw noManifest();
}

/**
 * Reads and checks a package's manifest against its files: which standard it follows, and
 * every item it launches. `asked` is the module kind the administrator chose; the standard
 * found is returned either way (the caller refuses a mismatch).
 */
export async function inspectPackage(
  archive: PackageArchive,
  asked: Family,
): Promise<PackageDescription> {
  const { family, file } = locateManifest(archive.files, asked);
  const name = MANIFESTS[family];
  if (file.size > MANIFEST_MAX_BYTES) {
    throw invalidManifest(name, "it is larger than 16 MB, far beyond what a course needs.");
  }
  const parsed = parseXml(decodeXml(await archive.readFile(file, MANIFEST_MAX_BYTES)));
  const paths = new Set(archive.files.keys());
  return family === "scorm"
    ? readScormManifest(parsed, paths)
    : readCmi5CourseStructure(parsed, paths);
}
