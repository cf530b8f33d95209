/**
 * The load generator: one process per scenario, separate from the server under test.
 * `node --import tsx scripts/bench/load.ts <spec.json>` runs autocannon for the warm-up
 * (discarded) and then for the measured duration, and prints one JSON line (LoadResult).
 *
 * Request kinds (functions cannot cross a process boundary, so the spec carries data):
 * - `rotate`: each request is the next of a list (a different learner, cursor or term each time);
 * - `progress`: POST /api/progress/update walking every enrollment's remaining modules in
 *   order; an enrollment is never in flight twice, so each call completes the next unlocked
 *   module (a fresh completion); when every queue is empty, calls repeat (idempotent);
 * - `range`: GET of a random `rangeBytes` range of a `fileBytes` file;
 * - `flood`: `rotate` measured, while more connections rotate over `flood` unmeasured from
 *   before the warm-up to the end (one learner asking for PDFs as fast as it can).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import autocannon from "autocannon";
import type { LoadResult, LoadSpec, ProgressItem, RequestSpec } from "./types";

const require = createRequire(import.meta.url);

/**
 * autocannon appends every response body to a string (`req.body += data`) even when nobody
 * reads it. For 8 MB video ranges that decoding costs the client more CPU than the server
 * spends sending them, so the client would be what is measured. Scenarios that do not read
 * bodies turn it off; the byte counts come from the socket and are unaffected.
 */
function discardBodies() {
  const queue = require("autocannon/lib/pipelinedRequestsQueue.js") as {
    prototype: { addBody(data: Buffer): void };
  };
  queue.prototype.addBody = () => {};
}

type Request = autocannon.Request;

function toRequest(r: RequestSpec): Request {
  return {
    method: r.method as Request["method"],
    path: r.path,
    headers: r.headers,
    ...(r.body === undefined ? {} : { body: r.body }),
  };
}

function rotating(list: RequestSpec[]) {
  let next = 0;
  return [
    {
      setupRequest: (req: Request) => {
        const r = list[next++ % list.length]!;
        return { ...req, ...toRequest(r) };
      },
    },
  ];
}

function buildRequests(spec: LoadSpec, stats: { fresh: number; repeats: number; failed: number }) {
  if (spec.kind === "rotate" || spec.kind === "flood") return rotating(spec.requests);
  if (spec.kind === "range") {
    const { path, headers, fileBytes, rangeBytes } = spec;
    return [
      {
        setupRequest: (req: Request) => {
          const start = Math.floor(Math.random() * (fileBytes - rangeBytes + 1));
          return {
            ...req,
            method: "GET" as const,
            path,
            headers: { ...headers, range: `bytes=${start}-${start + rangeBytes - 1}` },
          };
        },
      },
    ];
  }
  // progress: a FIFO of enrollments waiting for their next module.
  const ready: ProgressItem[] = spec.items.filter((i) => i.modules.length > 0);
  const all = spec.items;
  let repeatAt = 0;
  interface Ctx {
    item?: ProgressItem;
    fresh?: boolean;
  }
  return [
    {
      setupRequest: (req: Request, context: Ctx) => {
        let item = ready.shift();
        let moduleId: string;
        if (item) {
          moduleId = item.modules[0]!;
          context.fresh = true;
        } else {
          // Every queue is empty: repeat a module already completed (an idempotent call).
          item = all[repeatAt++ % all.length]!;
          moduleId = item.done ?? item.modules[0]!;
          context.fresh = false;
        }
        context.item = item;
        return {
          ...req,
          method: "POST" as const,
          path: "/api/progress/update",
          headers: { ...item.headers, "content-type": "application/json" },
          body: JSON.stringify({ userId: item.userId, courseId: item.courseId, moduleId }),
        };
      },
      onResponse: (status: number, _body: string, context: Ctx) => {
        const item = context.item;
        if (!item) return;
        if (!context.fresh) {
          stats.repeats++;
          return;
        }
        if (status === 200) {
          stats.fresh++;
          item.done = item.modules.shift();
          if (item.modules.length > 0) ready.push(item);
        } else {
          stats.failed++;
        }
      },
    },
  ];
}

function start(opts: autocannon.Options, onLatency?: (ms: number) => void) {
  let instance!: autocannon.Instance;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
    if (onLatency) {
      instance.on("response", (_client, _status, _bytes, responseTime) => onLatency(responseTime));
    }
  });
  return { done, stop: () => instance.stop() };
}

const run = (opts: autocannon.Options, onLatency?: (ms: number) => void) =>
  start(opts, onLatency).done;

const statusCounts = (result: autocannon.Result) =>
  Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, v]) => [code, v.count]),
  );

function percentile(sorted: Float64Array, p: number) {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main() {
  const spec = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as LoadSpec;
  const stats = { fresh: 0, repeats: 0, failed: 0 };
  if (spec.kind !== "progress") discardBodies();
  const requests = buildRequests(spec, stats);
  const base = {
    url: spec.url,
    connections: spec.connections,
    pipelining: 1,
    timeout: 30,
    requests: requests as Request[],
  };
  const flood =
    spec.kind === "flood"
      ? start({
          ...base,
          connections: spec.floodConnections,
          requests: rotating(spec.flood) as Request[],
          duration: spec.warmupSeconds + spec.durationSeconds + 5,
        })
      : undefined;
  if (spec.warmupSeconds > 0) await run({ ...base, duration: spec.warmupSeconds });
  stats.fresh = stats.repeats = stats.failed = 0;
  // Latencies of every response, for exact percentiles (autocannon reports no p95).
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  process.stdout.write("MEASURE\n");
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const result = await run({ ...base, duration: spec.durationSeconds }, (ms) => {
    if (count === latencies.length) {
      const bigger = new Float64Array(latencies.length * 2);
      bigger.set(latencies);
      latencies = bigger;
    }
    latencies[count++] = ms;
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  flood?.stop();
  const flooded = await flood?.done;
  const sorted = latencies.subarray(0, count).sort();
  const out: LoadResult = {
    requests: result.requests.total,
    seconds,
    rps: result.requests.total / seconds,
    bytesPerSecond: result.throughput.total / seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : 0,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: statusCounts(result),
    clientCpu: (cpu.user + cpu.system) / 1e6 / seconds,
    ...(spec.kind === "progress" ? { progress: stats } : {}),
    ...(flooded
      ? { flood: { requests: flooded.requests.total, statusCodes: statusCounts(flooded) } }
      : {}),
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
