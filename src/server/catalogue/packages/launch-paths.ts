import { unsafePath } from "./packages.errors";

/**
 * What a package item launches, as the run time opens it: a file of the package (its path
 * inside the package, names decoded, and what followed the path in the address: "?a=1#p2"),
 * or an address on another site.
 */
export type PackageLaunch = { file: string; query: string } | { url: string };

/** Where a manifest's launch address points. */
export type LaunchTarget =
  /** A file of the package, and what follows its path in the address ("?a=1#p2"). */
  | { kind: "file"; file: string; suffix: string }
  /** An address on another site (a cmi5 AU may be hosted elsewhere). */
  | { kind: "elsewhere"; url: string };

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * Resolves a manifest's address (`href`, a cmi5 `url`) against the folders it is relative
 * to (SCORM's `xml:base` of the manifest, the resources and the resource, outermost first),
 * as a browser would inside the package's top folder. An address that climbs out of the
 * package with "..", starts at a server's root or names no file is refused as leaving it.
 */
export function resolveLaunch(address: string, bases: (string | undefined)[] = []): LaunchTarget {
  const trimmed = address.trim();
  if (SCHEME.test(trimmed) || trimmed.startsWith("//")) return { kind: "elsewhere", url: trimmed };
  const cut = trimmed.search(/[?#]/);
  const path = cut === -1 ? trimmed : trimmed.slice(0, cut);
  const suffix = cut === -1 ? "" : trimmed.slice(cut);
  const folders: string[] = [];
  for (const base of bases) {
    const value = base?.trim();
    if (!value) continue;
    if (SCHEME.test(value) || value.startsWith("/")) throw unsafePath(value);
    folders.push(value.endsWith("/") ? value : `${value}/`);
  }
  if (path.startsWith("/") || path.startsWith("\\")) throw unsafePath(trimmed);
  const names: string[] = [];
  for (const name of `${folders.join("")}${path}`.split("/")) {
    if (name === "" || name === ".") continue;
    if (name === "..") {
      if (!names.length) throw unsafePath(trimmed);
      names.pop();
      continue;
    }
    names.push(decodeName(name));
  }
  if (!names.length || path.endsWith("/")) throw unsafePath(trimmed);
  if (names.some((n) => n.includes("/") || n.includes("\\") || n === "..")) {
    throw unsafePath(trimmed);
  }
  return { kind: "file", file: names.join("/"), suffix };
}

/**
 * A file the package has with the same name but other capitals: a package made on a
 * system that ignores them plays there and not here, which is worth saying.
 */
export function sameNameOtherCase(files: Iterable<string>, wanted: string): string | undefined {
  const lower = wanted.toLowerCase();
  for (const file of files) if (file.toLowerCase() === lower) return file;
  return undefined;
}
