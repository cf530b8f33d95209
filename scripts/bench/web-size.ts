/**
 * What a page of the web client loads first, from dist/web/index.html and Vite's manifest
 * (dist/web/.vite/manifest.json, `build.manifest: true`): the entry chunk and its static
 * imports, recursively, and their CSS; a route adds its lazy chunk and that chunk's static
 * imports. Sizes are gzip level 9 of the built files (what a server's gzip sends, roughly).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

interface PageWeight {
  page: string;
  jsFiles: string[];
  cssFiles: string[];
  jsBytes: number;
  jsGzip: number;
  cssBytes: number;
  cssGzip: number;
  /** Libraries that must load only where used, found in this page's first load. */
  heavyLibraries: string[];
}

export interface WebWeights {
  pages: PageWeight[];
  /** Which lazy chunks hold each heavy library (proof it is split off). */
  heavyLibraryChunks: Record<string, string[]>;
}

/** Strings each library's code carries (its CSS class prefixes or endpoints). */
const HEAVY_LIBRARIES: Record<string, RegExp> = {
  "charts (recharts)": /recharts-(wrapper|surface|layer)/,
  "uploads (uppy)": /uppy-(Dashboard|Root|u-reset)/,
  "identity SDK (firebase)": /identitytoolkit\.googleapis\.com|firebaseapp\.com|@firebase\/auth/,
};

/** Static closure of manifest keys: the chunk and everything it imports statically. */
function closure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return seen;
}

export function measureWeb(webRoot: string): WebWeights {
  const manifest = JSON.parse(
    readFileSync(join(webRoot, ".vite/manifest.json"), "utf8"),
  ) as Manifest;
  const html = readFileSync(join(webRoot, "index.html"), "utf8");
  const fileKey = new Map(Object.entries(manifest).map(([key, c]) => [c.file, key]));
  // index.html's own script and stylesheet tags are the ground truth for the first page.
  const htmlFiles = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map(
    (m) => m[1]!,
  );
  const entryKeys = htmlFiles.map((f) => fileKey.get(f)).filter((k): k is string => Boolean(k));
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry) ?? "index.html";
  const cache = new Map<string, Buffer>();
  const read = (file: string) => {
    let bytes = cache.get(file);
    if (!bytes) {
      bytes = readFileSync(join(webRoot, file));
      cache.set(file, bytes);
    }
    return bytes;
  };

  const weigh = (page: string, keys: Set<string>, extraFiles: string[]): PageWeight => {
    const files = new Set(extraFiles);
    for (const key of keys) {
      const chunk = manifest[key]!;
      if (chunk.file.endsWith(".js") || chunk.file.endsWith(".css")) files.add(chunk.file);
      for (const css of chunk.css ?? []) files.add(css);
    }
    const jsFiles = [...files].filter((f) => f.endsWith(".js")).sort();
    const cssFiles = [...files].filter((f) => f.endsWith(".css")).sort();
    const sum = (list: string[], f: (b: Buffer) => number) =>
      list.reduce((s, file) => s + f(read(file)), 0);
    const gz = (b: Buffer) => gzipSync(b, { level: 9 }).length;
    const text = jsFiles.map((f) => read(f).toString("utf8")).join("\n");
    return {
      page,
      jsFiles,
      cssFiles,
      jsBytes: sum(jsFiles, (b) => b.length),
      jsGzip: sum(jsFiles, gz),
      cssBytes: sum(cssFiles, (b) => b.length),
      cssGzip: sum(cssFiles, gz),
      heavyLibraries: Object.entries(HEAVY_LIBRARIES)
        .filter(([, marker]) => marker.test(text))
        .map(([name]) => name),
    };
  };

  const signIn = closure(manifest, [entryKey, ...entryKeys]);
  const dashboardKey = Object.keys(manifest).find((k) => /routes\/learner-dashboard\.tsx$/.test(k));
  const dashboard = closure(manifest, [...signIn, ...(dashboardKey ? [dashboardKey] : [])]);
  const heavyLibraryChunks: Record<string, string[]> = {};
  for (const [name, marker] of Object.entries(HEAVY_LIBRARIES)) {
    heavyLibraryChunks[name] = Object.values(manifest)
      .map((c) => c.file)
      .filter((f) => f.endsWith(".js") && marker.test(read(f).toString("utf8")));
  }
  return {
    pages: [
      weigh("sign-in page (/)", signIn, htmlFiles),
      weigh("learner dashboard (/learner)", dashboard, htmlFiles),
    ],
    heavyLibraryChunks,
  };
}
