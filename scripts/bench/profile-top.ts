/**
 * `npx tsx scripts/bench/profile-top.ts <file.cpuprofile> [rows]`: where a portal profile
 * (`npm run bench -- --profile <dir>`) spent its time, as shares of all samples: by package
 * (or the portal's own feature, or the runtime), then by function. The same file opens as a
 * flame graph in Chrome's DevTools (Performance) or https://www.speedscope.app.
 */
import { readFileSync } from "node:fs";

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface Profile {
  nodes: { id: number; callFrame: Frame }[];
  samples: number[];
  timeDeltas: number[];
}

const [file, rowsArg] = process.argv.slice(2);
if (!file) {
  console.error("Usage: npx tsx scripts/bench/profile-top.ts <file.cpuprofile> [rows]");
  process.exit(2);
}
const rows = Number(rowsArg ?? 20);
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));

function owner({ url, functionName }: Frame): string {
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const own = /\/src\/server\/(.+?)\/[^/]+$/.exec(url);
  if (own) return `portal: ${own[1]}`;
  if (url.startsWith("node:")) return "node runtime";
  if (url.startsWith("wasm:")) return "WebAssembly";
  return functionName || "(unnamed)";
}

const byOwner = new Map<string, number>();
const byFunction = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const frame = frames.get(id)!;
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  const name = `${frame.functionName || "(anonymous)"} ${frame.url.replace(/.*node_modules\//, "")}:${frame.lineNumber + 1}`;
  byOwner.set(owner(frame), (byOwner.get(owner(frame)) ?? 0) + dt);
  byFunction.set(name, (byFunction.get(name) ?? 0) + dt);
});

const print = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(`${((100 * t) / total).toFixed(1).padStart(6)}%  ${k}`);
  }
};
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`);
print("By owner", byOwner);
print("By function (self time)", byFunction);
