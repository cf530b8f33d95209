/**
 * `npx tsx scripts/bench/profile-top.ts <file.cpuprofile> [rows] [--busiest <s> | --last <s>]`:
 * where a portal profile (`npm run bench -- --profile <dir>`) spent its time, as shares of all
 * samples: by package (or the portal's own feature, or the runtime), then by function.
 * A profile covers the whole run (start, sign-ins, a scenario's setup, the pauses between
 * scenarios), in which one scenario's load is diluted: `--busiest 12` reads only the 12
 * seconds in which the thread was least idle, `--last 10` the last 10 seconds before it fell
 * idle for good (the last scenario of an `--only` run). The same file opens as a flame graph
 * in Chrome's DevTools (Performance) or https://www.speedscope.app.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

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

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { busiest: { type: "string" }, last: { type: "string" } },
});
const [file, rowsArg] = positionals;
if (!file) {
  console.error(
    "Usage: npx tsx scripts/bench/profile-top.ts <file.cpuprofile> [rows] [--busiest <s> | --last <s>]",
  );
  process.exit(2);
}
const rows = Number(rowsArg ?? 20);
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
const isIdle = (id: number) => frames.get(id)!.functionName === "(idle)";

/** When each sample was taken, in µs since the profile started. */
const at: number[] = [];
let clock = 0;
for (const dt of profile.timeDeltas) {
  clock += dt;
  at.push(clock);
}

/** The samples [from, to) of the window of `seconds` with the fewest idle samples. */
function busiestWindow(seconds: number): [number, number] {
  let best: [number, number] = [0, 0];
  let bestBusy = -1;
  let busy = 0;
  let from = 0;
  for (let to = 0; to < at.length; to++) {
    if (!isIdle(profile.samples[to]!)) busy++;
    for (; at[to]! - at[from]! > seconds * 1e6; from++) {
      if (!isIdle(profile.samples[from]!)) busy--;
    }
    if (busy > bestBusy) [bestBusy, best] = [busy, [from, to + 1]];
  }
  return best;
}

/** The samples of the last `seconds` before the last second in which the thread was mostly busy. */
function lastWindow(seconds: number): [number, number] {
  let to = at.length;
  for (;;) {
    let from = to;
    while (from > 0 && at[to - 1]! - at[from - 1]! < 1e6) from--;
    if (from === 0) break;
    const busy = profile.samples.slice(from, to).filter((id) => !isIdle(id)).length;
    if (busy * 2 > to - from) break;
    to = from;
  }
  let from = to;
  while (from > 0 && at[to - 1]! - at[from - 1]! < seconds * 1e6) from--;
  return [from, to];
}

const [from, to] = values.busiest
  ? busiestWindow(Number(values.busiest))
  : values.last
    ? lastWindow(Number(values.last))
    : [0, profile.samples.length];

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
profile.samples.slice(from, to).forEach((id, j) => {
  const i = from + j;
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
const window = values.busiest
  ? ` (its busiest ${values.busiest} s)`
  : values.last
    ? ` (its last ${values.last} busy s)`
    : "";
console.log(`${file}${window}: ${(total / 1e6).toFixed(1)} s sampled`);
print("By owner", byOwner);
print("By function (self time)", byFunction);
